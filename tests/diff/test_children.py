"""Plans of revisions run in child processes, which an interrupted diff stops at once."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from trainstack.core.errors import DiffError
from trainstack.diff.children import Children


def test_stopping_terminates_the_running_plans_and_refuses_new_ones() -> None:
    children = Children()
    sleeper = children.start(
        [sys.executable, "-c", "import time; time.sleep(60)"], ".", dict(os.environ)
    )
    children.stop()
    assert sleeper.wait(timeout=30) == -signal.SIGTERM
    with pytest.raises(DiffError, match="the diff was stopped"):
        children.start([sys.executable, "-c", "pass"], ".", dict(os.environ))


def test_killing_ends_even_a_plan_that_ignores_sigterm() -> None:
    """What a stop's guard calls before it ends the diff: no child outlives it."""
    children = Children()
    stubborn = children.start(
        [
            sys.executable,
            "-c",
            "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
            " print('ready', flush=True); time.sleep(60)",
        ],
        ".",
        dict(os.environ),
    )
    assert stubborn.stdout is not None
    assert stubborn.stdout.readline() == "ready\n"
    children.kill()
    # gone when kill() returns: the guard removes the diff's scratch directory next
    assert stubborn.returncode == -signal.SIGKILL
    with pytest.raises(DiffError, match="the diff was stopped"):
        children.start([sys.executable, "-c", "pass"], ".", dict(os.environ))
