"""Signals: Ctrl-C, SIGTERM and SIGHUP end a command within a second, cleaning up first.

Python turns SIGINT into :class:`KeyboardInterrupt` and dies on SIGTERM or SIGHUP without
running a single ``finally``. While a command runs (:func:`stopping_on_signals`), the
first of the three signals:

1. unwinds the main thread (:class:`KeyboardInterrupt` for Ctrl-C, :class:`Interrupted`
   for the others), so that every ``finally`` and context manager cleans up on the way out;
2. starts a guard: if the process still runs :data:`GRACE_SECONDS` later, the guard runs
   the cleanups registered with :func:`on_stop` (staging and temporary directories, child
   processes), prints what the command would have printed and ends the process with
   status 128+N. An exception raised by a signal handler can land anywhere: inside an
   asyncio task of the Pulumi engine (which then waits for ever, or logs "Task exception
   was never retrieved"), in a ``__del__`` ("Exception ignored in": the signal would be
   lost), in a wait for a child process. The guard makes the deadline hold regardless;
3. silences what an interrupted engine prints on its way out (asyncio's task log, the
   "Exception ignored" hook for the stop's own exception); later signals are ignored.

The guard is started by a thread that waits on the wakeup file descriptor of Python's
signal handling (:func:`signal.set_wakeup_fd`), which the C-level handler writes at once:
its clock starts when the signal arrives, also while the main thread is inside a long call
into native code (Helm's Go library) and cannot run the Python-level handler yet.

So a command ends at most :data:`STOP_DEADLINE_SECONDS` after the signal; a block that
must not be cut in half (:func:`deferred`: swapping a plan directory) only delays it by
its own length, at most :data:`DEFERRED_WAIT_SECONDS`. Work that commits (the swap) asks
:func:`raise_if_stopping` first, so a lost exception never lets a stopped command commit.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from trainstack.console.held_signals import (
    DEFERRED_WAIT_SECONDS,
    critical,
    deferred,
    in_main_thread,
    noted,
)

GRACE_SECONDS = 0.3
"""How long the main thread has to unwind by itself before the guard ends the process."""
STOP_DEADLINE_SECONDS = 1.0
"""What a stop takes at most, outside a deferred block (documented in docs/faults.md)."""


class Interrupted(BaseException):  # noqa: N818 (a signal, not an error: like KeyboardInterrupt)
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C so that every cleanup runs.

    A ``BaseException`` (like :class:`KeyboardInterrupt`) so that no ``except Exception``
    swallows it on the way out.
    """

    def __init__(self, signal_number: int) -> None:
        self.signal_number = signal_number
        super().__init__(f"interrupted by signal {signal_number}")


UNWINDING = (signal.SIGTERM, signal.SIGHUP)
STOPPING = (signal.SIGINT, *UNWINDING)

_stop: int | None = None
_guarding = threading.Lock()
"""Taken by whoever starts the guard (once per process)."""
_announcing = threading.RLock()
"""Held while the line is written: the main thread and the guard may both announce and
exit at once, and the second must not end the process before the first has written."""
_announced = False
_registry_lock = threading.Lock()
_cleanups: dict[int, Callable[[], None]] = {}
_ids = itertools.count()


def stop_signal() -> int | None:
    """The signal that is stopping the process, if one is."""
    return _stop


def signal_arrived() -> bool:
    """A stop began, or a deferred block holds a signal (for tests' pause points)."""
    return _stop is not None or bool(noted)


def raise_if_stopping() -> None:
    """Before committing: a stop that began (its exception lost on the way) ends here."""
    if _stop is not None:
        raise KeyboardInterrupt if _stop == signal.SIGINT else Interrupted(_stop)


def _on_signal(signal_number: int, _frame: FrameType | None) -> None:
    global _stop
    if _stop is not None:
        return  # already stopping: the guard ends the process in time
    _stop = signal_number
    _silence_the_engine()
    _start_guard(signal_number)
    raise_if_stopping()


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While inside: the three signals stop the command (module docstring; main thread)."""
    if not in_main_thread():
        yield
        return
    previous = {number: signal.signal(number, _on_signal) for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def end_at_once() -> None:
    """Until :func:`install`: each of the three signals ends the process at once with
    128+N (and the line :func:`announce` prints), raising nothing.

    For the executable's imports (some 2 s): nothing is written yet, so nothing needs
    unwinding, and an exception raised at a bytecode boundary there may land inside a
    C extension's module initialisation, which need not survive it.
    """
    for number in STOPPING:
        signal.signal(number, end_stopped)


def end_stopped(signal_number: int | None = None, _frame: FrameType | None = None) -> None:
    """End the process outside a command (its imports, the moments around it): stdout
    flushed, the line once, 128+N (the stop under way's N, when called, not a handler)."""
    number = signal_number or _stop or signal.SIGINT
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    announce(number)
    os._exit(128 + number)


def install() -> None:
    """For the rest of the process (the executable, once its modules are loaded): the three
    signals stop it as :func:`stopping_on_signals` says, the guard's clock started by the
    signal's arrival (module docstring)."""
    for number in STOPPING:
        signal.signal(number, _on_signal)
    reading, writing = os.pipe()
    os.set_blocking(writing, False)
    signal.set_wakeup_fd(writing, warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(reading,), name="signal-watch", daemon=True).start()


def _watch(reading: int) -> None:
    """Start the guard as soon as the C-level handler reports one of the three signals."""
    while True:
        try:
            data = os.read(reading, 64)
        except OSError:
            return
        if not data:
            return
        for number in data:
            if number in STOPPING:
                _start_guard(number)


def _start_guard(signal_number: int) -> None:
    if _guarding.acquire(blocking=False):
        threading.Thread(
            target=_guard, args=(signal_number,), name="stop-guard", daemon=True
        ).start()


def _register(cleanup: Callable[[], None]) -> int:
    with _registry_lock:
        key = next(_ids)
        _cleanups[key] = cleanup
    return key


def _forget(key: int | None) -> None:
    if key is not None:
        with _registry_lock:
            _cleanups.pop(key, None)


@contextlib.contextmanager
def on_stop(cleanup: Callable[[], None]) -> Iterator[None]:
    """While inside: ``cleanup`` runs if the guard has to end the process (any thread).

    Entered after a stop began (the main thread still at work while the guard runs), the
    block never starts: the stop is raised. For something the block makes, use
    :func:`made_and_removed`: it makes and registers it in one held step."""
    key = _register(cleanup)
    try:
        raise_if_stopping()
        yield
    finally:
        _forget(key)


@contextlib.contextmanager
def made_and_removed(make: Callable[[], Path], remove: Callable[[Path], None]) -> Iterator[Path]:
    """The path ``make`` creates, removed by ``remove`` on every way out: the block's end,
    an exception, a stop's unwinding, or the guard ending the process (SIGKILL aside).

    Made and registered in one step, and removed and forgotten in one step, each with the
    signals held (:func:`deferred`): a stop that landed between ``mkdir`` and registering
    left an empty staging directory behind (CI, SIGHUP), and one that landed inside
    ``rmtree`` cut the removal short after the guard had forgotten the directory.
    ``remove`` must accept a path that is already gone."""
    path: Path | None = None

    def cleanup() -> None:
        if path is not None:
            remove(path)

    key: int | None = None
    try:
        with deferred():
            key = _register(cleanup)
            path = make()
        raise_if_stopping()
        yield path
    finally:
        with deferred():
            try:
                cleanup()
            finally:
                _forget(key)


def _remove_tree(path: Path) -> None:
    if not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)


def scratch_directory(prefix: str) -> contextlib.AbstractContextManager[Path]:
    """A new private temporary directory, removed on every way out
    (:func:`made_and_removed`)."""
    return made_and_removed(lambda: Path(tempfile.mkdtemp(prefix=prefix)), _remove_tree)


def announce(signal_number: int) -> None:
    """Say once why the command ended (SIGTERM, SIGHUP: an error line; Ctrl-C: nothing,
    the terminal shows it)."""
    global _announced
    # Bounded: a writer blocked on a full stderr pipe must not hold the other past the deadline.
    took = _announcing.acquire(timeout=STOP_DEADLINE_SECONDS)
    try:
        if _announced:
            return
        _announced = True
        if signal_number != signal.SIGINT:
            with contextlib.suppress(OSError):
                os.write(2, f"error: stopped by signal {signal_number}\n".encode())
    finally:
        if took:
            _announcing.release()


def _guard(signal_number: int) -> None:
    time.sleep(GRACE_SECONDS)
    held = critical.acquire(timeout=DEFERRED_WAIT_SECONDS)
    done: set[int] = set()
    # Twice: the main thread still runs meanwhile, and may have registered one more (a
    # scratch directory it made just before the stop reached it).
    for _ in range(2):
        with _registry_lock:
            cleanups = [(key, cleanup) for key, cleanup in _cleanups.items() if key not in done]
        for key, cleanup in reversed(cleanups):
            done.add(key)
            with contextlib.suppress(BaseException):
                cleanup()
    announce(signal_number)
    with contextlib.suppress(BaseException):
        sys.stdout.flush()
    del held
    os._exit(128 + signal_number)


def _silence_the_engine() -> None:
    """What an interrupted asyncio program prints on its way out is noise, not news."""
    logging.getLogger("asyncio").disabled = True
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt | Interrupted):
            previous(unraisable)

    sys.unraisablehook = hook
