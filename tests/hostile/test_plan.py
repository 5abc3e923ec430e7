"""``trainstack plan`` on the hostile corpus: one error line, exit 2, nothing touched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hostile.corpus import PLAN_CASES, Case, check_refused
from tests.project_copy import copy_project, run_in_process


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project copy with a previous plan of each stack the cases use, in ``out/``."""
    root = copy_project(tmp_path_factory.mktemp("planned"))
    for stack in ("onprem", "aiacc"):
        outcome = run_in_process(["plan", stack, "-o", "out"], root)
        assert outcome.status == 0, outcome.stderr
    return root


@pytest.mark.parametrize("case", PLAN_CASES, ids=str)
def test_hostile_input_is_refused_and_changes_nothing(
    case: Case, planned: Path, tmp_path: Path
) -> None:
    root = tmp_path / "project"
    shutil.copytree(planned, root, symlinks=True)
    check_refused(case, root, tmp_path)
