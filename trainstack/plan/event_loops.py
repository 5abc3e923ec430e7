"""The event loops the Pulumi SDK runs a program on under the mocks: what they would print
or leave behind after the run, which the plan reports or cleans up itself."""

from __future__ import annotations

import asyncio
import atexit
import threading
from typing import Any

from pulumi.runtime import sync_await


def enter_worker_loop() -> None:
    """Before a call of the SDK's mock monitor: this worker thread's event loop, open.

    The monitor needs a loop in each SDK worker thread that calls it and makes one when
    the thread has none, but never closes it; left to interpreter shutdown, such a loop can
    be finalised after its self-pipe and Python prints a traceback from
    ``BaseEventLoop.__del__``. So the loop is made here, kept for the thread's life (the
    SDK's executor serves every run of a process with the same few threads; making and
    closing a loop per registration took a tenth of a plan of 1,000 experiments) and
    closed once its thread has ended, or at exit. Kept open, it is there for any other
    code that runs in the thread later (the SDK's own mocks in tests).
    """
    thread = threading.current_thread()
    if thread is threading.main_thread():
        return
    policy = asyncio.get_event_loop_policy()
    try:
        loop: asyncio.AbstractEventLoop | None = policy.get_event_loop()
    except RuntimeError:  # none in this thread yet
        loop = None
    if loop is not None and not loop.is_closed():
        return
    loop = policy.new_event_loop()
    policy.set_event_loop(loop)
    with _lock:
        ended = [other for other in _made if not other.is_alive()]
        for other in ended:
            _close(_made.pop(other))
        _made[thread] = loop


_made: dict[threading.Thread, asyncio.AbstractEventLoop] = {}
"""The loops :func:`enter_worker_loop` made, by the thread they serve."""
_lock = threading.Lock()


def _close(loop: asyncio.AbstractEventLoop) -> None:
    if not loop.is_running():
        loop.close()


@atexit.register
def _close_worker_loops() -> None:
    """At exit, before the interpreter finalises what is left."""
    with _lock:
        loops = list(_made.values())
        _made.clear()
    for loop in loops:
        _close(loop)


def report_each_failure_once() -> None:
    """A run that fails leaves the SDK's futures holding its error (every output that
    waited on the failed step) and raises the error itself, which its caller reports. When
    the garbage collector later reaches those futures, asyncio's default handler would log
    each one again with its traceback, at whatever moment the collection happens. They are
    not logged; anything else the loop reports still is. (Formatting such a traceback from
    inside a collection also broke an ``ast.parse`` running at the time, CPython 3.11's
    shared AST depth counter: python/cpython#106905.)"""

    def handle(handled: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        never_retrieved = "exception" in context and ("future" in context or "task" in context)
        if not never_retrieved:
            handled.default_exception_handler(context)

    # The loop the SDK runs the program on (its own helper, which makes one if need be).
    loop: asyncio.AbstractEventLoop = sync_await._ensure_event_loop()  # type: ignore[no-untyped-call]
    loop.set_exception_handler(handle)
