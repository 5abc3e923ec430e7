"""The plan directory is replaced whole or not at all, and only when it is trainstack's.

The signal and disk tests run the real ``trainstack plan`` in a subprocess and stop it at
named points of the writer (``TRAINSTACK_TEST_PAUSE_AT``), with real signals, a real full
file system (a small tmpfs), a real read-only one and a real file-size limit.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.project_copy import copy_project, edit_yaml, run_in_process, tree
from tests.stack_helpers import REPO
from tests.tmpfs import in_small_tmpfs
from trainstack.core.errors import OutputError
from trainstack.plan import output_dir
from trainstack.plan.model import Plan
from trainstack.plan.output_dir import PAUSE_ENV
from trainstack.plan.ownership import MARKER
from trainstack.plan.writer import write_plan

pytestmark = pytest.mark.slow  # left out of `make test-fast`

STACK = "onprem"


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name != STACK)


# --- the swap itself ---------------------------------------------------------------------


def _has_renameat2() -> bool:
    return hasattr(ctypes.CDLL(None), "renameat2")


@pytest.mark.skipif(not _has_renameat2(), reason="this libc has no renameat2")
def test_the_swap_is_one_exchange(
    example_plans: dict[str, Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With RENAME_EXCHANGE the stack's name is never missing: no rename() is needed."""
    write_plan(example_plans[STACK], tmp_path)

    def no_rename(*_: object) -> None:
        raise AssertionError("os.rename was called")

    monkeypatch.setattr(output_dir.os, "rename", no_rename)
    write_plan(example_plans[STACK], tmp_path)
    assert (tmp_path / STACK / MARKER).is_file()
    assert _leftovers(tmp_path) == []


def test_without_renameat2_two_renames_are_undone_on_failure(
    example_plans: dict[str, Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = write_plan(example_plans[STACK], tmp_path)
    before = tree(written)
    monkeypatch.setattr(output_dir, "_renameat2", lambda *_: False)
    renames: list[tuple[str, str]] = []
    real_rename = os.rename

    def second_fails(source: object, target: object) -> None:
        renames.append((Path(str(source)).name, Path(str(target)).name))
        if len(renames) == 2:
            raise OSError(errno.EIO, "Input/output error")
        real_rename(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(output_dir.os, "rename", second_fails)
    with pytest.raises(OutputError, match=r"Input/output error \(EIO\)"):
        write_plan(example_plans[STACK], tmp_path)
    assert renames[0][0] == STACK and renames[1][1] == STACK
    assert tree(written) == before
    assert _leftovers(tmp_path) == []


def test_without_renameat2_the_plan_is_still_replaced(
    example_plans: dict[str, Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_plan(example_plans[STACK], tmp_path)
    (tmp_path / STACK / "stale").write_text("x")
    monkeypatch.setattr(output_dir, "_renameat2", lambda *_: False)
    write_plan(example_plans[STACK], tmp_path)
    assert not (tmp_path / STACK / "stale").exists()
    assert _leftovers(tmp_path) == []


# --- the real process, stopped by signals at each step --------------------------------------


@pytest.fixture(scope="module")
def two_plans(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | bytes]]:
    """A project whose stack is planned once (plan A) and then changed (plan B's input).

    Returns the project and plan B as an uninterrupted run writes it (both planned in this
    process: the same bytes as a process writes, 2-3 s of CPU less each).
    """
    root = copy_project(tmp_path_factory.mktemp("project"))
    outcome = run_in_process(["plan", STACK, "-o", "out"], root)
    assert outcome.status == 0, outcome.stderr

    def relabel(document: dict[str, dict[str, list[dict[str, object]]]]) -> None:
        document["config"]["trainstack:nodePools"][0]["labels"] = {"trainstack.io/pool": "plan-b"}

    edit_yaml(root / "stacks" / f"Pulumi.{STACK}.yaml", relabel)
    reference = tmp_path_factory.mktemp("reference")
    outcome = run_in_process(["plan", STACK, "-o", str(reference)], root)
    assert outcome.status == 0, outcome.stderr
    return root, tree(reference / STACK)


def _stop_at(root: Path, out: Path, point: str, signal_number: int) -> tuple[int, str]:
    # The writer waits at the point until the signal arrives (at "swapped", held, the
    # pause ends when it arrives and the signal is handled after the block): no sleeping.
    env = {**os.environ, "PYTHONPATH": str(REPO), PAUSE_ENV: point}
    process = subprocess.Popen(
        [sys.executable, "-m", "trainstack", "plan", STACK, "-o", str(out)],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()  # blocks until the writer pauses (or the plan fails)
    assert line == f"paused at {point}\n"
    process.send_signal(signal_number)
    rest = process.stderr.read()
    return process.wait(timeout=60), rest


@pytest.mark.parametrize(
    ("point", "signal_number", "expected"),
    [
        ("made", signal.SIGHUP, "previous"),  # CI once found the staging directory left
        ("writing", signal.SIGTERM, "previous"),
        ("written", signal.SIGINT, "previous"),
        ("swapping", signal.SIGHUP, "previous"),
        ("swapped", signal.SIGTERM, "new"),
    ],
)
def test_a_signal_leaves_the_previous_plan_or_the_new_one_whole(
    two_plans: tuple[Path, dict[str, str | bytes]],
    tmp_path: Path,
    point: str,
    signal_number: int,
    expected: str,
) -> None:
    root, plan_b = two_plans
    out = tmp_path / "out"
    shutil.copytree(root / "out", out)
    previous = tree(out / STACK)
    assert previous != plan_b

    status, stderr = _stop_at(root, out, point, signal_number)

    if signal_number == signal.SIGINT:
        assert status == 130  # Typer's exit status for Ctrl-C
        assert "error:" not in stderr
    else:
        assert status == 128 + signal_number
        assert stderr.splitlines() == [f"error: stopped by signal {signal_number}"]
    assert "Traceback" not in stderr
    assert tree(out / STACK) == (previous if expected == "previous" else plan_b)
    assert _leftovers(out) == []


# --- full, read-only and size-limited disks ------------------------------------------------

_IN_NAMESPACE = r"""
import json, os, shutil, subprocess, sys
from pathlib import Path
mount, previous, project, mode, pythonpath = sys.argv[1:6]
out = Path(mount) / "out"
shutil.copytree(previous, out)

def tree(directory):
    return {
        str(p.relative_to(directory)): p.read_text("utf-8", "replace") if p.is_file() else "<dir>"
        for p in sorted(directory.rglob("*"))
    }

before = tree(out)
if mode == "read-only":
    subprocess.run(["mount", "-o", "remount,ro", mount], check=True)
result = subprocess.run(
    [sys.executable, "-m", "trainstack", "plan", "onprem", "-o", str(out)],
    cwd=project, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": pythonpath},
)
print(json.dumps({"status": result.returncode, "stderr": result.stderr,
                  "same": tree(out) == before, "entries": sorted(os.listdir(out))}))
"""


def _in_small_tmpfs(root: Path, mode: str, size_kib: int) -> dict[str, object]:
    """Plan onto a tmpfs of ``size_kib`` in a private mount namespace (no root needed)."""
    outcome: dict[str, object] = in_small_tmpfs(
        root / "mnt", size_kib, _IN_NAMESPACE, root / "out", root, mode, REPO
    )
    return outcome


def _plan_size_kib(plan: Path) -> int:
    # tmpfs: a page per directory, and per file as many as its bytes fill (at least one)
    pages = 1 + sum(max(1, -(-path.stat().st_size // 4096)) for path in plan.rglob("*"))
    return pages * 4


def test_a_full_disk_leaves_the_previous_plan(
    two_plans: tuple[Path, dict[str, str | bytes]],
) -> None:
    root, _ = two_plans
    size = _plan_size_kib(root / "out" / STACK) * 3 // 2  # the new plan cannot fit beside it
    outcome = _in_small_tmpfs(root, "full", size)
    assert outcome["status"] == 2
    assert str(outcome["stderr"]).splitlines() == [
        line for line in str(outcome["stderr"]).splitlines() if line.startswith("error: ")
    ]
    assert "No space left on device (ENOSPC); the previous plan" in str(outcome["stderr"])
    assert outcome["same"] is True
    assert outcome["entries"] == [STACK]


def test_a_read_only_disk_leaves_the_previous_plan(
    two_plans: tuple[Path, dict[str, str | bytes]],
) -> None:
    root, _ = two_plans
    outcome = _in_small_tmpfs(root, "read-only", 4096)
    assert outcome["status"] == 2
    assert str(outcome["stderr"]).count("\n") == 1
    assert "Read-only file system (EROFS)" in str(outcome["stderr"])
    assert outcome["same"] is True


def test_a_file_size_limit_leaves_the_previous_plan(
    two_plans: tuple[Path, dict[str, str | bytes]], tmp_path: Path
) -> None:
    """``ulimit -f``: writes past the limit fail with EFBIG (Python ignores SIGXFSZ)."""
    root, _ = two_plans
    out = tmp_path / "out"
    shutil.copytree(root / "out", out)
    before = tree(out)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "trainstack", "plan", STACK, "-o", str(out)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=limit,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: cannot write the plan in {out / STACK}: File too large (EFBIG); the previous "
        "plan, if any, is unchanged"
    ]
    assert tree(out) == before
