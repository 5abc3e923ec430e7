"""Matching objects across two plans and diffing their canonical YAML."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import StackWriter
from tests.diff.plan_dirs import write_plan_dir
from tests.stack_helpers import example_config
from trainstack.diff.compare import compare
from trainstack.diff.model import StackDiff
from trainstack.diff.snapshot import load_snapshot
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import write_plan


def _diff(first: Path, second: Path) -> StackDiff:
    return compare(load_snapshot(first), load_snapshot(second), "a", "b")


def _changed_lines(lines: tuple[str, ...]) -> list[str]:
    """The - and + lines of a unified diff, without its two file headers."""
    return [line for line in lines if line[:1] in "+-" and line[:3] not in ("---", "+++")]


def test_worker_count_change_shows_exactly_that_object_and_line(tmp_path: Path) -> None:
    workers = {"resnet": 2, "bert": 4, "lstm": 1}
    first = write_plan_dir(tmp_path / "a", "aiacc", workers)
    second = write_plan_dir(tmp_path / "b", "baseline", {**workers, "bert": 8})

    result = _diff(first, second)

    changed = [item for item in result.objects if item.status == "changed"]
    # The release's values and the rendered MPIJob both carry the worker count.
    assert [item.key.label for item in changed] == [
        "MPIJob default/bert",
        "kubernetes:helm.sh/v3:Release bert-release",
    ]
    job = changed[0]
    # spec > mpiReplicaSpecs > Worker > replicas: three levels of two-space indentation.
    assert _changed_lines(job.diff_lines) == ["-      replicas: 4", "+      replicas: 8"]
    assert result.count("unchanged") == 4
    assert (result.count("added"), result.count("removed")) == (0, 0)


def test_objects_are_matched_without_the_stack_name_in_their_urns(tmp_path: Path) -> None:
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2})
    second = write_plan_dir(tmp_path / "b", "baseline", {"resnet": 2})

    result = _diff(first, second)

    assert not result.has_changes
    assert result.count("unchanged") == 2


def test_object_on_one_side_only_is_added_or_removed_in_full(tmp_path: Path) -> None:
    first = write_plan_dir(tmp_path / "a", "s", {"resnet": 2, "old": 1})
    second = write_plan_dir(tmp_path / "b", "s", {"resnet": 2, "new": 3})

    result = _diff(first, second)

    statuses = {item.key.label: item.status for item in result.shown}
    assert statuses == {
        "MPIJob default/new": "added",
        "MPIJob default/old": "removed",
        "kubernetes:helm.sh/v3:Release new-release": "added",
        "kubernetes:helm.sh/v3:Release old-release": "removed",
    }
    added = next(item for item in result.shown if item.key.label == "MPIJob default/new")
    assert added.diff_lines[0] == "--- /dev/null"
    assert "+      replicas: 3" in added.diff_lines
    assert all(line.startswith(("+", "@@")) for line in added.diff_lines[2:])


def test_real_plans_of_two_stacks_differ_in_the_node_pool_size(
    write_stack: StackWriter, tmp_path: Path
) -> None:
    config = example_config("baseline")
    project = write_stack(config)
    write_plan(plan_stack(project, "test"), tmp_path / "a")
    config["trainstack:nodePools"][0]["desiredSize"] = 6
    project = write_stack(config)
    write_plan(plan_stack(project, "test"), tmp_path / "b")

    result = _diff(tmp_path / "a" / "test", tmp_path / "b" / "test")

    assert [item.key.label for item in result.shown] == [
        "alicloud:cs/nodePool:NodePool gpu-v100-pool"
    ]
    # The node pool's inputs carry desiredSize as a string (the provider's type).
    assert _changed_lines(result.shown[0].diff_lines) == [
        "-  desiredSize: '4'",
        "+  desiredSize: '6'",
    ]


def test_context_lines_follow_the_option(tmp_path: Path) -> None:
    first = write_plan_dir(tmp_path / "a", "s", {"resnet": 2})
    second = write_plan_dir(tmp_path / "b", "s", {"resnet": 5})

    wide = compare(load_snapshot(first), load_snapshot(second), "a", "b", context=3)
    narrow = compare(load_snapshot(first), load_snapshot(second), "a", "b", context=0)

    job = [item for item in narrow.shown if item.key.parts[0] == "kubernetes"][0]
    # apiVersion, kind, metadata (+name, namespace), spec, mpiReplicaSpecs, Launcher
    # (+replicas), Worker: the worker count is line 11, and no context line is shown.
    assert job.diff_lines[2:] == ("@@ -11 +11 @@", "-      replicas: 2", "+      replicas: 5")
    assert len(wide.shown[0].diff_lines) > len(narrow.shown[0].diff_lines)


@pytest.mark.parametrize("status", ["added", "removed", "changed", "unchanged"])
def test_summary_counts_every_status(tmp_path: Path, status: str) -> None:
    first = write_plan_dir(tmp_path / "a", "s", {"keep": 1, "edit": 1, "old": 1})
    second = write_plan_dir(tmp_path / "b", "s", {"keep": 1, "edit": 2, "new": 1})

    result = _diff(first, second)

    # Two objects per experiment: its release and its MPIJob.
    assert result.count(status) == 2
    assert f"2 {status}" in result.summary()
