"""Signals held while a block that must not be cut in half runs (a plan directory's swap,
a scratch directory's removal): noted, then handled when the block ends.

A stop's guard (:mod:`trainstack.console.signals`) waits for such a block, at most
:data:`DEFERRED_WAIT_SECONDS`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

DEFERRED_WAIT_SECONDS = 5.0
"""How long the guard waits for a :func:`deferred` block (a swap) to end."""
DEFERRED = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})

critical = threading.RLock()
"""Held by the main thread inside a :func:`deferred` block (re-entered by nested ones); the
guard waits for it, and once the guard holds it a block waits in turn: the guard is ending
the process, and what the block would do (a swap, a removal) must not race its cleanups."""
noted: list[int] = []
"""Signals held by the deferred block running now."""


def in_main_thread() -> bool:
    """Handlers and the signal mask of the process are the main thread's business."""
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block is done (then they are handled).

    Held by Python-level handlers that only note the signal, not by the thread's signal
    mask: the kernel gives a signal sent to the process to any thread that does not block
    it (the Pulumi SDK's worker threads), and Python then runs the main thread's handler
    at once. When the block ends each noted signal goes to the handler it was meant for
    (the default action of a signal without one). A stop's guard waits for the block.
    """
    if not in_main_thread():
        yield
        return

    def note(signal_number: int, _frame: FrameType | None) -> None:
        noted.append(signal_number)

    previous: dict[int, Any] = {}
    critical.acquire()
    try:
        for wanted in DEFERRED:  # one by one: a signal cutting this short restores those set
            previous[wanted] = signal.signal(wanted, note)
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        held = list(dict.fromkeys(noted))
        noted.clear()
        critical.release()
        for held_number in held:
            _deliver(held_number, previous[held_number])


def _deliver(signal_number: int, handler: Any) -> None:
    if callable(handler):
        handler(signal_number, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal_number)
