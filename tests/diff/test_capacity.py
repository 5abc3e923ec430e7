"""A pool scale-up in the diff: GPUs, CPU and memory per pool, and what the teams' quotas
cover, in text, markdown and JSON (issue 38, item 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.project_copy import copy_project, run_in_process
from trainstack.diff.capacity import capacity_change, capacity_lines
from trainstack.plan.capacity_record import CapacityFile, PoolCapacity, TeamQuota

TEMPLATE = "stacks/templates/workload-1-ack.yaml"
POOL = (
    "pool gpu-v100: 16 → 24 V100 GPUs, 192 → 288 CPU, 1.438Ti → 2.156Ti memory "
    f"(4 → 6 nodes; {TEMPLATE}: nodePools[0].desiredSize)"
)
COVERAGE = (
    "24 V100 GPUs (were 16), 16 in the teams' quotas (vision 10, nlp 6): 8 in no team's "
    "quota sit idle under Kueue (it admits within nominal quotas and lends only those); "
    "raise a team's quota (stacks/Pulumi.aiacc.yaml: trainstack:teams[0].quota.gpu, "
    "stacks/Pulumi.aiacc.yaml: trainstack:teams[1].quota.gpu) to use them"
)


@pytest.fixture(scope="module")
def scaled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """Plans of aiacc before and after its GPU pool grows from 4 to 6 nodes (in the
    cluster template): (project, before, after)."""
    base = tmp_path_factory.mktemp("scale-up")
    root = copy_project(base / "project")
    assert run_in_process(["plan", "aiacc", "-o", str(base / "a")], root).status == 0
    template = root / TEMPLATE
    text = template.read_text()
    assert text.count("desiredSize: 4") == 1
    template.write_text(text.replace("desiredSize: 4", "desiredSize: 6"))
    assert run_in_process(["plan", "aiacc", "-o", str(base / "b")], root).status == 0
    return root, base / "a" / "aiacc", base / "b" / "aiacc"


def _diff(scaled: tuple[Path, Path, Path], output: str) -> str:
    root, before, after = scaled
    ran = run_in_process(["diff", "--plans", str(before), str(after), "--format", output], root)
    assert ran.status == 1, ran.stderr  # a change
    return ran.stdout


def test_the_text_diff_shows_the_gpus_and_the_idle_ones(scaled: tuple[Path, Path, Path]) -> None:
    lines = _diff(scaled, "text").splitlines()
    at = lines.index("capacity (pools at their largest; what the teams' quotas cover):")
    assert lines[at + 1 : at + 3] == [f"  {POOL}", f"  {COVERAGE}"]


def test_the_pr_comment_states_the_gpu_change_and_the_quota_coverage(
    scaled: tuple[Path, Path, Path],
) -> None:
    comment = _diff(scaled, "markdown")
    section = comment[comment.index("**Capacity**") :].split("\n\n")
    assert section[1] == "> [!WARNING]\n> GPUs in no team's quota sit idle under Kueue: 8 V100."
    assert section[2] == f"- `{POOL}`\n- `{COVERAGE}`"
    # Before the object diffs: a reviewer reads the consequence first.
    assert comment.index("**Capacity**") < comment.index("<details>")


def test_the_json_diff_holds_every_figure(scaled: tuple[Path, Path, Path]) -> None:
    (stack,) = json.loads(_diff(scaled, "json"))["stacks"]
    capacity = stack["capacity"]
    (pool,) = capacity["pools"]
    assert pool["pool"] == "gpu-v100" and pool["gpuModel"] == "V100"
    assert pool["gpus"] == {"before": "16", "after": "24"}
    assert pool["nodes"] == {"before": "4", "after": "6"}
    assert pool["cpu"] == {"before": "192", "after": "288"}
    assert pool["memory"] == {"before": str(4 * 368 * 2**30), "after": str(6 * 368 * 2**30)}
    (coverage,) = capacity["coverage"]
    assert coverage == {
        "gpuModel": "V100",
        "gpus": 24,
        "gpusBefore": 16,
        "inQuota": 16,
        "idle": 8,
        "queueing": True,
        "teams": {"vision": 10, "nlp": 6},
        "keys": [
            "stacks/Pulumi.aiacc.yaml: trainstack:teams[0].quota.gpu",
            "stacks/Pulumi.aiacc.yaml: trainstack:teams[1].quota.gpu",
        ],
    }


def _side(nodes: int, vision: int) -> CapacityFile:
    pool = PoolCapacity("gpu", nodes, 4, "V100", "48", "368Gi", "FILE: nodePools[0].desiredSize")
    return CapacityFile("s", True, [pool], [TeamQuota("vision", {"V100": vision}, "KEY")])


def test_nothing_changed_shows_nothing() -> None:
    assert capacity_lines(capacity_change(_side(4, 16), _side(4, 16))) == []


def test_a_quota_raised_to_the_pools_gpus_leaves_none_idle() -> None:
    change = capacity_change(_side(4, 8), _side(4, 16))
    assert change.pools == ()
    assert [c.text() for c in change.coverage] == [
        "16 V100 GPUs, 16 in the teams' quotas (vision 16): every GPU is in a team's quota"
    ]


def test_without_queueing_the_gpus_outside_quotas_serve_other_namespaces() -> None:
    after = _side(6, 16)
    unqueued = CapacityFile("s", False, after.pools, after.teams)
    (coverage,) = capacity_change(_side(4, 16), unqueued).coverage
    assert coverage.idle == 8 and "used only by pods outside the teams' namespaces" in (
        coverage.text()
    )
