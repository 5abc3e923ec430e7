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

critical = threading.Lock()
"""Held by the main thread inside a :func:`deferred` block; the guard waits for it."""
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

    outer = not critical.locked()
    if outer:
        critical.acquire()
    previous = {number: signal.signal(number, note) for number in DEFERRED}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        held = list(dict.fromkeys(noted))
        noted.clear()
        if outer:
            critical.release()
        for held_number in held:
            _deliver(held_number, previous[signal.Signals(held_number)])


def _deliver(signal_number: int, handler: Any) -> None:
    if callable(handler):
        handler(signal_number, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal_number)
