"""Plans of revisions run in child processes, which an interrupted diff stops at once."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from trainstack.core.errors import DiffError
from trainstack.diff.planner import _Children


def test_stopping_terminates_the_running_plans_and_refuses_new_ones() -> None:
    children = _Children()
    sleeper = children.start(
        [sys.executable, "-c", "import time; time.sleep(60)"], ".", dict(os.environ)
    )
    children.stop()
    assert sleeper.wait(timeout=30) == -signal.SIGTERM
    with pytest.raises(DiffError, match="the diff was stopped"):
        children.start([sys.executable, "-c", "pass"], ".", dict(os.environ))
