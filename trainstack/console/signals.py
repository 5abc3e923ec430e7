"""Signals: SIGTERM and SIGHUP unwind like Ctrl-C; a few system calls defer all three.

Python turns SIGINT into :class:`KeyboardInterrupt`, but dies on SIGTERM or SIGHUP
without running a single ``finally``: temporary and staging directories would stay
behind. While a command runs, those signals raise :class:`Interrupted` instead, so that
every cleanup runs on the way out. :func:`deferred` holds the three signals around steps
that must not be cut in half (swapping a plan directory, removing the one it replaced): a
signal that arrives meanwhile is handled right after.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any


class Interrupted(BaseException):  # noqa: N818 (a signal, not an error: like KeyboardInterrupt)
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C so that every cleanup runs.

    A ``BaseException`` (like :class:`KeyboardInterrupt`) so that no ``except Exception``
    swallows it on the way out.
    """

    def __init__(self, signal_number: int) -> None:
        self.signal_number = signal_number
        super().__init__(f"interrupted by signal {signal_number}")


UNWINDING = (signal.SIGTERM, signal.SIGHUP)
DEFERRED = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _in_main_thread() -> bool:
    # Handlers and the signal mask of the process are the main thread's business.
    return threading.current_thread() is threading.main_thread()


def _raise(signal_number: int, _frame: FrameType | None) -> None:
    raise Interrupted(signal_number)


@contextlib.contextmanager
def unwinding() -> Iterator[None]:
    """While inside: SIGTERM and SIGHUP raise :class:`Interrupted` (in the main thread)."""
    if not _in_main_thread():
        yield
        return
    previous = {number: signal.signal(number, _raise) for number in UNWINDING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block is done (then they are handled).

    Held by Python-level handlers that only note the signal, not by the thread's signal
    mask: the kernel gives a signal sent to the process to any thread that does not block
    it (the Pulumi SDK's worker threads), and Python then runs the main thread's handler
    at once. When the block ends each noted signal goes to the handler it was meant for
    (the default action of a signal without one).
    """
    if not _in_main_thread():
        yield
        return
    noted: list[int] = []

    def note(signal_number: int, _frame: FrameType | None) -> None:
        noted.append(signal_number)

    previous = {number: signal.signal(number, note) for number in DEFERRED}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for held in dict.fromkeys(noted):
            _deliver(held, previous[signal.Signals(held)])


def _deliver(signal_number: int, handler: Any) -> None:
    if callable(handler):
        handler(signal_number, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal_number)
