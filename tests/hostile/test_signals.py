"""Ctrl-C, SIGTERM and SIGHUP at random moments of a real ``plan`` and ``diff --base``.

Each is tried several times in a loop (a lost signal showed in 5 of 65 tries before): the
command must end (a hang fails the test after :data:`HANG_SECONDS`; the deadline itself,
one second, is measured by ``benchmarks/signal_stop.py``), say so in one line (none for
Ctrl-C), leave the previous plan or the new one whole, and leave no staging directory,
no temporary checkout and no child plan behind.

The moments are drawn from a seeded generator (the same in every run) after an event the
test waits for: the process has set its signal handlers (``plan``), or a child plan of the
revision has started (``diff --base``).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from tests.diff.plan_dirs import copy_project, init_repo
from tests.project_copy import edit_yaml, run_in_process, tree
from tests.stack_helpers import REPO

pytestmark = pytest.mark.slow  # left out of `make test-fast`

HANG_SECONDS = 30
TRIES = 3
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
STACK = "onprem"


def _start(root: Path, scratch: Path, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "TMPDIR": str(scratch),
        "TRAINSTACK_CACHE_DIR": str(scratch.parent / "cache"),
        # A crash (CI once saw SIGSEGV instead of 129) prints every thread's stack.
        "PYTHONFAULTHANDLER": "1",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "trainstack", *args],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _handles_signals(process: subprocess.Popen[str]) -> bool:
    """The process set its handlers: SIGTERM is in its caught set (``SigCgt``, a mask)."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def _wait_for(event: Callable[[], object], process: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + HANG_SECONDS
    while not event() and process.poll() is None:
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


def _processes_under(scratch: Path) -> list[str]:
    """Processes whose command line names ``scratch`` (the child plans of a diff)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if str(scratch).encode() in command:
                found.append(command.decode(errors="replace"))
    return found


def _stop(process: subprocess.Popen[str], number: int) -> tuple[int, str]:
    process.send_signal(number)
    try:
        _, stderr = process.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"still running {HANG_SECONDS} s after signal {number}")
    return process.returncode, stderr


def _check_ending(status: int, stderr: str, number: int, finished: int) -> None:
    assert "Traceback" not in stderr and "Task exception" not in stderr, stderr
    if status == finished:  # it was done before the signal came
        return
    assert status == 128 + number, stderr
    expected = [] if number == signal.SIGINT else [f"error: stopped by signal {number}"]
    assert stderr.splitlines() == expected


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | bytes]]:
    """A committed project with a previous plan in ``out/``, then its stack changed.

    Returns the project and the plan the changed stack gives (both planned in this process:
    the processes the tests stop are theirs; 2-3 s of CPU less each).
    """
    root = copy_project(tmp_path_factory.mktemp("project"), ("onprem", "aiacc", "imagenet"))
    outcome = run_in_process(["plan", STACK, "-o", "out"], root)
    assert outcome.status == 0, outcome.stderr
    init_repo(root)

    def relabel(document: dict[str, dict[str, list[dict[str, object]]]]) -> None:
        document["config"]["trainstack:nodePools"][0]["labels"] = {"trainstack.io/pool": "new"}

    edit_yaml(root / "stacks" / f"Pulumi.{STACK}.yaml", relabel)
    reference = tmp_path_factory.mktemp("reference")
    outcome = run_in_process(["plan", STACK, "-o", str(reference)], root)
    assert outcome.status == 0, outcome.stderr
    return root, tree(reference / STACK)


@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_plan_stopped_at_any_moment_leaves_a_whole_plan_and_nothing_else(
    project: tuple[Path, dict[str, str | bytes]], tmp_path: Path, number: int
) -> None:
    root, new = project
    previous = tree(root / "out" / STACK)
    rng = random.Random(number)
    for attempt in range(TRIES):
        out = tmp_path / f"out-{attempt}"
        shutil.copytree(root / "out", out)
        scratch = tmp_path / f"scratch-{attempt}"
        scratch.mkdir()
        process = _start(root, scratch, "plan", STACK, "-o", str(out))
        _wait_for(partial(_handles_signals, process), process, "the handlers are set")
        time.sleep(rng.uniform(0.0, 3.0))  # the moment (not a wait for anything)
        status, stderr = _stop(process, number)
        _check_ending(status, stderr, number, finished=0)
        assert tree(out / STACK) in (previous, new), f"attempt {attempt}: a plan cut in half"
        if status == 0:
            assert tree(out / STACK) == new
        assert sorted(os.listdir(out)) == [STACK], f"attempt {attempt}: staging left"
        assert os.listdir(scratch) == []


@pytest.mark.parametrize("number", SIGNALS, ids=lambda n: signal.Signals(n).name)
def test_a_diff_base_stopped_while_its_child_plans_run_ends_them_all(
    project: tuple[Path, dict[str, str | bytes]], tmp_path: Path, number: int
) -> None:
    """A cold cache: the revision's plans run in child processes when the signal comes."""
    root, _ = project
    rng = random.Random(100 + number)
    for attempt in range(TRIES):
        scratch = tmp_path / f"scratch-{attempt}" / "tmp"
        scratch.mkdir(parents=True)
        process = _start(root, scratch, "diff", "--base", "main", STACK)
        _wait_for(partial(_processes_under, scratch), process, "a child plan runs")
        time.sleep(rng.uniform(0.0, 1.5))
        status, stderr = _stop(process, number)
        _check_ending(status, stderr, number, finished=1)
        assert _processes_under(scratch) == [], f"attempt {attempt}: a child plan outlived it"
        assert os.listdir(scratch) == [], f"attempt {attempt}: a checkout or plan was left"
        cache = scratch.parent / "cache"
        if status != 1:
            # A release's render or checks may be kept (each entry is written whole, and
            # verified before use: tests/plan/test_render_cache.py); a plan, never.
            plans = cache / "plans"
            assert not plans.exists() or os.listdir(plans) == [], "a stopped diff stored plans"
        assert list(cache.rglob(".new-*")) == [], f"attempt {attempt}: a cache entry half-written"
