"""``trainstack diff`` on hostile stacks and plan directories: one error line, exit 2."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.hostile.corpus import Case, Edit, check_refused, nothing, stack, write
from tests.project_copy import copy_project, run_in_process
from trainstack.core.limits import MAX_PLAN_FILE_BYTES


def _broken_twin(root: Path) -> None:
    shutil.copy(root / "stacks/Pulumi.onprem.yaml", root / "stacks/Pulumi.twin.yaml")
    stack("twin", lambda config: config["trainstack:nodePools"][0].update(gpusPerNode=True))(root)


def _plan_file(name: str, content: str | bytes) -> Edit:
    def edit(root: Path) -> None:
        for side in ("a", "b"):
            (root / "plans" / side).mkdir(parents=True, exist_ok=True)
            (root / "plans" / side / "resources.json").write_text("[]\n")
        path = root / "plans" / "b" / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)

    return edit


def _sparse_plan(root: Path) -> None:
    _plan_file("resources.json", "[]")(root)
    os.truncate(root / "plans" / "b" / "resources.json", MAX_PLAN_FILE_BYTES + 1)


PLANS = ("diff", "--plans", "plans/a", "plans/b")

DIFF_CASES = [
    Case(
        "one-stack-is-broken",
        _broken_twin,
        ("stacks/Pulumi.twin.yaml", "trainstack:nodePools[0].gpusPerNode: found true"),
        args=("diff", "onprem", "twin"),
    ),
    Case(
        "stack-name-climbing-out",
        nothing,
        ("stack name '../../etc/x' is invalid",),
        args=("diff", "onprem", "../../etc/x"),
    ),
    Case(
        "plan-file-not-json",
        _plan_file("resources.json", "{"),
        ("plans/b/resources.json: not valid JSON",),
        args=PLANS,
    ),
    Case(
        "plan-file-nested-too-deeply",
        _plan_file("resources.json", "[" * 100_000 + "]" * 100_000),
        ("plans/b/resources.json: JSON nested more than 64 deep", "at most 64 levels"),
        args=PLANS,
    ),
    Case(
        "plan-file-not-utf8",
        _plan_file("objects.json", b'[{"kind": "\xff"}]'),
        ("plans/b/objects.json: not UTF-8",),
        args=PLANS,
    ),
    Case(
        "plan-file-too-large",
        _sparse_plan,
        ("plans/b/resources.json: larger than 67108864 bytes",),
        args=PLANS,
    ),
    Case(
        "no-plan-at-all",
        write("plans/a/resources.json", "[]"),
        ("no plan in plans/b: resources.json is missing",),
        args=PLANS,
    ),
    Case(
        "not-a-git-repository",
        nothing,
        ("is not inside a git repository",),
        args=("diff", "--base", "main"),
    ),
]


@pytest.mark.parametrize("case", DIFF_CASES, ids=str)
def test_hostile_diff_input_is_refused_and_changes_nothing(case: Case, tmp_path: Path) -> None:
    check_refused(case, copy_project(tmp_path / "project"), tmp_path)


def test_a_plain_credential_in_an_old_plan_is_never_shown(tmp_path: Path) -> None:
    """Plans made before plain credentials were refused may hold one: the diff masks it."""
    for side, secret in (("a", "Old-Secret-4"), ("b", "New-Secret-5")):
        directory = tmp_path / side
        directory.mkdir()
        (directory / "resources.json").write_text("[]\n")
        config = {"alicloud:region": "cn-beijing", "alicloud:secretKey": secret}
        (directory / "provider-config.json").write_text(json.dumps(config))
    outcome = run_in_process(["diff", "--plans", "a", "b"], tmp_path)
    assert outcome.status == 0, outcome.stderr  # both sides mask to the same placeholder
    assert "Secret-" not in outcome.stdout + outcome.stderr
