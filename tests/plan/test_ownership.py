"""Which directories are trainstack's plans: only those are replaced; links never followed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.project_copy import tree
from trainstack.core.errors import OutputError, StackNameError
from trainstack.plan.model import Plan
from trainstack.plan.output_dir import replacing
from trainstack.plan.ownership import MARKER
from trainstack.plan.writer import write_plan

STACK = "onprem"


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name != STACK)


# --- what may be replaced --------------------------------------------------------------


def test_a_plan_carries_the_marker_and_replaces_a_plan(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    written = write_plan(example_plans[STACK], tmp_path)
    assert (written / MARKER).is_file()
    (written / "stale.txt").write_text("from the previous plan")
    write_plan(example_plans[STACK], tmp_path)
    assert not (written / "stale.txt").exists()
    assert _leftovers(tmp_path) == []


def test_a_directory_that_is_not_a_plan_is_never_replaced(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    foreign = tmp_path / STACK
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("years of work")
    before = tree(tmp_path)
    with pytest.raises(OutputError, match=f"was not written by `trainstack plan` .*{MARKER}"):
        write_plan(example_plans[STACK], tmp_path)
    assert tree(tmp_path) == before


def test_an_empty_directory_is_replaced(example_plans: dict[str, Plan], tmp_path: Path) -> None:
    (tmp_path / STACK).mkdir()
    written = write_plan(example_plans[STACK], tmp_path)
    assert (written / MARKER).is_file()


def test_a_file_in_the_way_is_refused(example_plans: dict[str, Plan], tmp_path: Path) -> None:
    (tmp_path / STACK).write_text("notes")
    with pytest.raises(OutputError, match="exists and is not a directory"):
        write_plan(example_plans[STACK], tmp_path)
    assert (tmp_path / STACK).read_text() == "notes"


def test_a_symlink_in_place_of_the_plan_is_neither_followed_nor_removed(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    write_plan(example_plans[STACK], victim)  # looks like a plan, and is one
    out = tmp_path / "out"
    out.mkdir()
    (out / STACK).symlink_to(victim / STACK)
    before = tree(tmp_path)
    with pytest.raises(OutputError, match="is a symbolic link; trainstack never follows"):
        write_plan(example_plans[STACK], out)
    assert tree(tmp_path) == before


def test_a_symlink_inside_a_plan_is_refused(example_plans: dict[str, Plan], tmp_path: Path) -> None:
    written = write_plan(example_plans[STACK], tmp_path / "out")
    (tmp_path / "precious").write_text("x")
    (written / "resources" / "link").symlink_to(tmp_path / "precious")
    before = tree(tmp_path)
    with pytest.raises(OutputError, match=r"resources/link is a symbolic link inside"):
        write_plan(example_plans[STACK], tmp_path / "out")
    assert tree(tmp_path) == before


def test_an_output_dir_that_is_a_file_is_refused(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    (tmp_path / "out").write_text("x")
    with pytest.raises(OutputError, match="is a file, not a directory"):
        write_plan(example_plans[STACK], tmp_path / "out")


def test_an_invalid_stack_name_never_becomes_a_path(tmp_path: Path) -> None:
    with pytest.raises(StackNameError, match=r"stack name '\.\.' is invalid"):
        with replacing(tmp_path, ".."):
            pass
    assert list(tmp_path.iterdir()) == []


# --- what a plan that died leaves, and what the next one does with it --------------------


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_leftovers_of_a_dead_plan_are_removed(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    write_plan(example_plans[STACK], tmp_path)
    pid = _dead_pid()
    staging = tmp_path / f".{STACK}.trainstack-new-{pid}-abc123"
    shutil.copytree(tmp_path / STACK, staging)
    killed_at_birth = tmp_path / f".{STACK}.trainstack-new-{pid}-0123ab"
    killed_at_birth.mkdir()  # SIGKILL before the marker was written: empty, removed
    stranger = tmp_path / f".{STACK}.trainstack-new-{pid}-fff000"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("someone's")  # no marker: not ours, left alone
    write_plan(example_plans[STACK], tmp_path)
    assert _leftovers(tmp_path) == [stranger.name]
    assert (stranger / "notes.txt").read_text() == "someone's"


def test_a_swap_cut_between_its_renames_is_undone(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    write_plan(example_plans[STACK], tmp_path)
    old = tmp_path / f".{STACK}.trainstack-old-{_dead_pid()}-abc123"
    (tmp_path / STACK).rename(old)  # SIGKILL after the first of the fallback's two renames
    (old / "from-the-previous-plan").write_text("x")
    with replacing(tmp_path, STACK) as staging:
        assert (tmp_path / STACK / "from-the-previous-plan").is_file()  # restored first
        (staging / "new").write_text("y")
    assert (tmp_path / STACK / "new").is_file()
    assert _leftovers(tmp_path) == []


def test_leftovers_of_a_running_plan_are_kept(tmp_path: Path) -> None:
    running = tmp_path / f".{STACK}.trainstack-new-{os.getppid()}-abc123"
    running.mkdir()
    (running / MARKER).write_text("")
    with replacing(tmp_path, STACK):
        pass
    assert running.is_dir()


def test_a_plan_of_an_earlier_trainstack_is_replaced(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    """Plans from before the marker hold plan files only: they are still replaced."""
    written = write_plan(example_plans[STACK], tmp_path)
    (written / MARKER).unlink()
    for name in ("review.json", "cost.json", "capacity.json"):  # written since, as the marker
        (written / name).unlink()
    write_plan(example_plans[STACK], tmp_path)
    assert (written / MARKER).is_file()


def test_a_plan_like_directory_with_anything_else_is_not_replaced(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    written = write_plan(example_plans[STACK], tmp_path)
    (written / MARKER).unlink()
    (written / "resources" / "my-notes.txt").write_text("mine")
    with pytest.raises(OutputError, match="was not written by `trainstack plan`"):
        write_plan(example_plans[STACK], tmp_path)
    assert (written / "resources" / "my-notes.txt").read_text() == "mine"
