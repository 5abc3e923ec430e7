"""``python -m trainstack`` and the ``trainstack`` executable.

Only wires: the signals are set first (a light import), so that Ctrl-C, SIGTERM or SIGHUP
while the command line's modules load (some 2 s of imports) end the process at once and
quietly with 128+N, never inside an extension module's initialisation; then the handlers
that unwind a running command (:func:`trainstack.console.signals.install`) and
:func:`trainstack.cli.run`.
"""

import signal


def run() -> None:
    """The ``trainstack`` executable."""
    # Until end_at_once() below: Ctrl-C ends the process as SIGTERM does, without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    from trainstack.console import signals

    signals.end_at_once()
    from trainstack.cli import run as run_command_line

    try:
        signals.install()
        run_command_line()
    except (KeyboardInterrupt, signals.Interrupted):
        # The stop came outside the command's own handling: after the handlers were set
        # but before the command began, or after it ended. Nothing of it runs there, so
        # the process ends as it does during the imports (no traceback, 128+N).
        signals.end_stopped()


# Guarded: worker processes the plan starts re-import the main module under another name.
if __name__ == "__main__":
    run()
