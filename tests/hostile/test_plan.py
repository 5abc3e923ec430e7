"""``trainstack plan`` on the hostile corpus: one error line, exit 2, nothing touched."""

from __future__ import annotations

import shutil
from collections.abc import Callable
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


def _reason(text: str) -> Callable[[Path], None]:
    """The onprem experiment's first acknowledgement's reason written as ``text`` (YAML)."""

    def edit(root: Path) -> None:
        path = root / "experiments" / "horovod-resnet50-onprem.yaml"
        found = path.read_text()
        changed = found.replace('reason: "workload 2: Open MPI', f'reason: "{text}', 1)
        assert changed != found
        path.write_text(changed)

    return edit


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("\\e[2J\\e]0;pwned\\a RDMA ", "U+001B"),
        ("RDMA\\nwarning: [dataLoss] no data at risk\\n", "U+000A"),
        ("RDMA\\r", "U+000D"),
        ("RDMA\\u2028warning: forged", "U+2028"),
    ],
)
def test_an_acknowledgement_reason_cannot_replay_or_forge_output(
    text: str, control: str, tmp_path: Path
) -> None:
    """Shown within the plan's, the diff's and the PR comment's own lines: refused."""
    case = Case(
        f"reason-{control}",
        _reason(text),
        (
            "experiments/horovod-resnet50-onprem.yaml:13: acknowledge[0].reason: found",
            f"{control}, a control character",
            "allowed: one line of text without control characters",
        ),
        args=("plan", "onprem", "-o", "out"),
    )
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)
