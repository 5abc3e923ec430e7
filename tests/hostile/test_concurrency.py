"""Two commands at once on one output directory or one plan cache: both succeed, and what
is left is whole (one plan or the other, byte for byte; cache entries that verify)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.diff.plan_dirs import copy_project, init_repo
from tests.project_copy import edit_yaml, run_in_process, tree
from tests.stack_helpers import REPO
from trainstack.plan.cache import CACHE_DIR_ENV
from trainstack.plan.cache_entries import MANIFEST

pytestmark = pytest.mark.slow  # left out of `make test-fast`

STACK = "onprem"
ROUNDS = 3
Plans = dict[str, dict[str, str | bytes]]


def _together(
    *runs: tuple[Path, list[str]], env: dict[str, str] | None = None
) -> list[tuple[int, str, str]]:
    """Start every ``(cwd, args)`` at once; (status, stdout, stderr) of each."""
    environment = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "trainstack", *args],
            cwd=cwd,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for cwd, args in runs
    ]
    ended = [process.communicate(timeout=300) for process in processes]
    return [(p.returncode, out, err) for p, (out, err) in zip(processes, ended, strict=True)]


@pytest.fixture(scope="module")
def two_projects(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, dict[str, dict[str, str | bytes]]]:
    """Two projects whose stack differs (a pool label), and the plan each gives alone
    (planned in this process: the same bytes, 2-3 s of CPU less each)."""
    first = copy_project(tmp_path_factory.mktemp("first"), (STACK,))
    second = copy_project(tmp_path_factory.mktemp("second"), (STACK,))

    def relabel(document: dict[str, dict[str, list[dict[str, object]]]]) -> None:
        document["config"]["trainstack:nodePools"][0]["labels"] = {"trainstack.io/pool": "b"}

    edit_yaml(second / "stacks" / f"Pulumi.{STACK}.yaml", relabel)
    alone: Plans = {}
    for name, root in (("first", first), ("second", second)):
        outcome = run_in_process(["plan", STACK, "-o", "alone"], root)
        assert outcome.status == 0, outcome.stderr
        alone[name] = tree(root / "alone" / STACK)
    assert alone["first"] != alone["second"]
    return first, second, alone


def test_two_plans_at_once_into_one_directory_leave_one_of_them_whole(
    two_projects: tuple[Path, Path, Plans], tmp_path: Path
) -> None:
    first, second, alone = two_projects
    out = tmp_path / "out"
    for round_ in range(ROUNDS):
        ended = _together(
            (first, ["plan", STACK, "-o", str(out)]), (second, ["plan", STACK, "-o", str(out)])
        )
        assert [status for status, _, _ in ended] == [0, 0], [err for _, _, err in ended]
        assert tree(out / STACK) in (alone["first"], alone["second"]), f"round {round_}"
        assert sorted(os.listdir(out)) == [STACK]  # no staging or replaced plan left


def test_two_diffs_at_once_on_one_cache_agree_and_leave_entries_that_verify(
    tmp_path: Path,
) -> None:
    root = init_repo(copy_project(tmp_path / "repo", (STACK,)))
    stack_file = root / "stacks" / f"Pulumi.{STACK}.yaml"
    text = stack_file.read_text()
    stack_file.write_text(text.replace("trainstack.io/pool: dgx-v100", "trainstack.io/pool: b"))
    env = {CACHE_DIR_ENV: str(tmp_path / "cache")}
    diff = (root, ["diff", "--base", "main", STACK])
    for round_ in range(2):  # a cold cache written by both, then served to both
        ended = _together(diff, diff, env=env)
        assert [status for status, _, _ in ended] == [1, 1], [err for _, _, err in ended]
        assert ended[0][1] == ended[1][1], f"round {round_}: the two diffs disagree"
        assert "trainstack.io/pool: b" in ended[0][1]
        entries = sorted((tmp_path / "cache" / "plans").iterdir())
        assert len(entries) == 2  # the revision's side and the working tree's, once each
        for entry in entries:
            assert sorted(os.listdir(entry)) == sorted([MANIFEST, STACK])
