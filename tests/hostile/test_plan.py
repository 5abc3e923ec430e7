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


ENVIRONMENT_CASES = [
    Case(
        "pulumi-config-not-json",
        lambda _: None,
        ("environment variable PULUMI_CONFIG: found text that is not JSON (not shown",),
        env={"PULUMI_CONFIG": "hunter2 not json"},
        secret="hunter2",
    ),
    Case(
        "pulumi-config-a-list",
        lambda _: None,
        ("environment variable PULUMI_CONFIG: found JSON list", "allowed: a JSON object"),
        env={"PULUMI_CONFIG": '["hunter2"]'},
        secret="hunter2",
    ),
    Case(
        "pulumi-config-secret-keys-not-a-list-of-text",
        lambda _: None,
        ("environment variable PULUMI_CONFIG_SECRET_KEYS: found another value",),
        env={"PULUMI_CONFIG_SECRET_KEYS": '{"hunter2": 1}'},
        secret="hunter2",
    ),
    Case(
        "pause-seconds-not-a-number",
        lambda _: None,
        ("environment variable TRAINSTACK_TEST_PAUSE_AT: found 'abc'",),
        env={"TRAINSTACK_TEST_PAUSE_AT": "writing:abc"},
    ),
]


@pytest.mark.parametrize("case", ENVIRONMENT_CASES, ids=str)
def test_a_malformed_environment_variable_is_one_error(case: Case, tmp_path: Path) -> None:
    """The Pulumi SDK decodes PULUMI_CONFIG* as JSON unchecked: a shell that left one set
    made every plan an internal error."""
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)
