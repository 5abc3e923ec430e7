"""``python -m trainstack`` and the ``trainstack`` executable.

Only wires: the signals are set first (a light import), so that Ctrl-C, SIGTERM or SIGHUP
while the command line's modules load (some 2 s of imports) end the process quietly with
128+N instead of a traceback; then :func:`trainstack.cli.run`.
"""

import os
import signal


def run() -> None:
    """The ``trainstack`` executable."""
    # Until install() below: Ctrl-C ends the process as SIGTERM does, without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    from trainstack.console import signals

    signals.install()
    try:
        from trainstack.cli import run as run_command_line
    except (KeyboardInterrupt, signals.Interrupted):
        stopped = signals.stop_signal() or signal.SIGINT
        signals.announce(stopped)
        os._exit(128 + stopped)  # nothing was written yet: nothing to clean up
    run_command_line()


# Guarded: worker processes the plan starts re-import the main module under another name.
if __name__ == "__main__":
    run()
