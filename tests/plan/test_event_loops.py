"""The SDK's worker threads keep one open event loop across plans; none is left behind."""

from __future__ import annotations

import asyncio
import os
import threading

from pulumi.runtime import sync_await

from trainstack.core.project import Project
from trainstack.plan.event_loops import enter_worker_loop
from trainstack.plan.runner import plan_stack


def _worker_loop_states() -> set[tuple[bool, bool]]:
    """(has a loop, it is closed) in each of the SDK's executor threads a call reaches."""

    def state() -> tuple[bool, bool]:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return False, False
        return True, loop.is_closed()

    loop = sync_await._ensure_event_loop()  # type: ignore[no-untyped-call]
    calls = [loop.run_in_executor(None, state) for _ in range(32)]
    return set(loop.run_until_complete(asyncio.gather(*calls)))


def test_a_worker_thread_keeps_an_open_loop_after_a_plan(project: Project) -> None:
    """Code run in the SDK's threads after a plan (the SDK's own mocks, in the component
    tests) finds the thread's loop open, never a closed one it cannot run."""
    plan_stack(project, "imagenet", None, None)
    assert (True, True) not in _worker_loop_states()


def test_the_loops_of_ended_threads_are_closed() -> None:
    """Each loop holds descriptors (a selector, a socket pair): threads that come and go
    leave no more than a few open."""

    def in_a_thread() -> None:
        thread = threading.Thread(target=enter_worker_loop)
        thread.start()
        thread.join()

    in_a_thread()
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(40):
        in_a_thread()
    assert len(os.listdir("/proc/self/fd")) - before <= 3  # the last thread's loop
