"""What a trainstack process costs besides its work: garbage collection and teardown.

Registering a resource under Pulumi's engine allocates thousands of futures, outputs and
protobuf values, and a plan holds its whole model in memory. With CPython's defaults a
200-experiment plan ran some 800 collections, six of them traversing every object of the
process (about 1 s of CPU in all, a fifth of the plan), and the interpreter's teardown
then freed every object one by one (another 0.7 s) after the plan was written.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

YOUNG_THRESHOLD = 50_000
"""Allocations between two collections of the youngest generation (CPython's: 700)."""


def tune_garbage_collector() -> None:
    """Freeze what exists (imported modules live as long as the process: no collection
    traverses them again) and collect the young generation less often.

    Cycles are still collected, in larger batches: a few MiB more at peak.
    """
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 10, 10)


def exit_at_once(status: int) -> None:
    """End the process with ``status`` without the interpreter's teardown.

    What an exit must still do is done first: the standard streams are flushed and the
    ``atexit`` handlers run (those of ``multiprocessing``, ``logging``, temporary files,
    coverage...). The teardown that is skipped only frees memory, which the system
    reclaims anyway. This returns instead, and the interpreter exits as usual, where
    flushing fails (stdout closed by ``| head``: Python reports it) and under a profiler
    or a tracer (``python -m cProfile``, a debugger: they finish their work after the
    program returns).
    """
    if sys.getprofile() is not None or sys.gettrace() is not None or not _flushed():
        return
    atexit._run_exitfuncs()
    if _flushed():  # what the handlers printed
        os._exit(status)


def _flushed() -> bool:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return False
    return True
