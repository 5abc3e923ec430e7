"""The event loops the Pulumi SDK runs a program on under the mocks: what they would print
or leave behind after the run, which the plan reports or cleans up itself."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from pulumi.runtime import sync_await


def close_thread_loop() -> None:
    """Close the event loop the SDK's mock monitor made for this worker thread.

    The monitor gives each SDK worker thread a loop of its own and never closes it; left
    to interpreter shutdown, such a loop can be finalised after its self-pipe and Python
    prints a traceback from ``BaseEventLoop.__del__``. The next call makes a new one.
    """
    if threading.current_thread() is threading.main_thread():
        return
    policy = asyncio.get_event_loop_policy()
    with contextlib.suppress(RuntimeError):
        loop = policy.get_event_loop()
        if not loop.is_running():
            loop.close()
            policy.set_event_loop(None)


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
