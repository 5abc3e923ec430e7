"""Releases that exist, and pairs that work: refused through the real `trainstack plan`.

Each case edits the example stack `aiacc` of a throw-away copy of the project and runs the
console entry point as users do: exit 2, one `error:` line naming the stack file and the
line of every key it is about, and what to set instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.project_copy import assert_refused, copy_project, edit_yaml, run_in_process
from trainstack.core.yaml.io import dump_yaml

STACK = "stacks/Pulumi.aiacc.yaml"
TRAINJOB = {
    "name": "torch-trainjob",
    "team": "nlp",
    "job": {
        "framework": "trainjob",
        "image": {"name": "registry.example.com/nlp/torch-ddp:1.0"},
        "command": ["torchrun", "/opt/train.py"],
        "worker": {"replicas": 2, "gpus": 1},
    },
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


def _plan(project: Path, change: Callable[[dict[str, Any]], None]) -> Any:
    edit_yaml(project / STACK, lambda document: change(document["config"]))
    return run_in_process(["plan", "aiacc", "--output-dir", str(project / "out")], project)


def _at(project: Path, *parts: str) -> str:
    """``stacks/Pulumi.aiacc.yaml:N``: the line of the last of ``parts``, each part found
    on a line of its own after the previous one (read from the edited copy's text)."""
    lines = (project / STACK).read_text().splitlines()
    index = 0
    for part in parts:
        index = next(i for i in range(index, len(lines)) if lines[i].strip().startswith(f"{part}:"))
    return f"{STACK}:{index + 1}"


def test_a_release_that_never_shipped_is_refused_with_the_one_to_use(project: Path) -> None:
    def change(config: dict[str, Any]) -> None:
        config["trainstack:operators"]["mpiOperator"]["version"] = "0.8.1"

    outcome = _plan(project, change)
    where = _at(project, "trainstack:operators", "mpiOperator", "version")
    line = assert_refused(
        outcome,
        (
            f"invalid stack configuration in {where}: ",
            'trainstack:operators.mpiOperator.version: found "0.8.1"; allowed: a released '
            "version: 0.8.1 was never released (kubeflow/mpi-operator RELEASE.md:",
        ),
    )
    assert line.endswith("; use 0.8.2")


def test_trainer_2_3_with_kueue_0_16_and_queued_trainjobs_is_refused_naming_both(
    project: Path,
) -> None:
    (project / "experiments" / "torch-trainjob.yaml").write_text(dump_yaml(TRAINJOB))

    def change(config: dict[str, Any]) -> None:
        config["trainstack:operators"]["trainer"] = {"version": "2.3.0"}
        config["trainstack:queueing"]["chart"]["version"] = "0.16.1"
        config["trainstack:experiments"]["select"].append("torch-trainjob")

    outcome = _plan(project, change)
    kueue = _at(project, "trainstack:queueing", "chart", "version")
    trainer = _at(project, "trainstack:operators", "trainer", "version")
    line = assert_refused(
        outcome,
        (
            f"invalid stack configuration in {kueue} and {trainer} "
            "(trainstack:operators.trainer.version): trainstack:queueing.chart.version: "
            'found "0.16.1"; allowed: a Kueue release that works with Kubeflow Trainer v2 '
            "2.3.0 (operators.trainer.version) while Kueue queues "
            "trainjobs.trainer.kubeflow.org: ",
            "kubeflow/trainer#3309",
            "kubernetes-sigs/kueue#10127",
        ),
    )
    assert line.endswith("; use Kueue 0.18.6 or 0.19.2 (queueing.chart.version)")


def test_following_that_fix_plans(project: Path) -> None:
    def change(config: dict[str, Any]) -> None:
        config["trainstack:operators"]["trainer"] = {"version": "2.3.0"}
        config["trainstack:queueing"]["chart"]["version"] = "0.18.6"

    outcome = _plan(project, change)
    assert outcome.status == 0, outcome.stderr
    assert "error" not in outcome.stderr


def test_an_mpi_operator_older_than_kueue_needs_is_refused_naming_both(project: Path) -> None:
    def change(config: dict[str, Any]) -> None:
        config["trainstack:operators"]["mpiOperator"]["version"] = "0.6.0"

    outcome = _plan(project, change)
    mpi = _at(project, "trainstack:operators", "mpiOperator", "version")
    kueue = _at(project, "trainstack:queueing", "chart", "version")
    line = assert_refused(
        outcome,
        (
            f"invalid stack configuration in {mpi} and {kueue} (trainstack:queueing.chart."
            'version): trainstack:operators.mpiOperator.version: found "0.6.0"; allowed: a '
            "Kubeflow mpi-operator release that works with Kueue 0.19.2",
            "kubeflow/mpi-operator#772",
        ),
    )
    assert line.endswith("; use Kubeflow mpi-operator 0.8.2 (operators.mpiOperator.version)")
