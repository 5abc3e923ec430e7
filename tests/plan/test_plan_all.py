"""``trainstack plan --all``: every stack of the project, as planning each would."""

from __future__ import annotations

from pathlib import Path

from tests.project_copy import copy_project, run_in_process, tree


def test_every_stack_planned_byte_for_byte_as_one_by_one(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    every = run_in_process(["plan", "--all", "-o", str(tmp_path / "all")], root)
    assert every.status == 0, every.stderr
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == [
        "aiacc",
        "baseline",
        "imagenet",
        "onprem",
    ]
    assert every.stdout.count("plan written to ") == 4
    for stack in ("aiacc", "imagenet"):
        one = run_in_process(["plan", stack, "-o", str(tmp_path / "one")], root)
        assert one.status == 0, one.stderr
        assert tree(tmp_path / "one" / stack) == tree(tmp_path / "all" / stack)


def test_a_stack_that_fails_does_not_stop_the_others(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    (root / "stacks" / "Pulumi.broken.yaml").write_text("config:\n  trainstack:cluster: 3\n")
    every = run_in_process(["plan", "--all", "-o", str(tmp_path / "all")], root)
    assert every.status == 2
    assert every.stdout.count("plan written to ") == 4
    assert every.error_lines[0].startswith(
        "error: invalid stack configuration in stacks/Pulumi.broken.yaml"
    )
    assert every.error_lines[-1] == (
        "error: 1 stack(s) did not plan: broken (their errors above; 4 planned)"
    )
    assert not (tmp_path / "all" / "broken").exists()


def test_a_stack_and_all_are_refused_together(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    outcome = run_in_process(["plan", "aiacc", "--all"], root)
    assert (outcome.status, outcome.error_lines) == (
        2,
        ["error: give a stack (aiacc) or --all, not both"],
    )
