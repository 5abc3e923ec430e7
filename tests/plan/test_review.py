"""review.json: a plan's warnings, acknowledged warnings and unselected experiments.

The plan is the real program's, of a throw-away project: two experiment files that write
a model where no volume is mounted (one acknowledges it), a matrix the stack does not
select, and a stack acknowledgement that matches nothing (a ``staleAcknowledgement``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import stack_config
from tests.project_copy import copy_project
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.plan.files import REVIEW_JSON
from trainstack.plan.model import Plan
from trainstack.plan.review import review_lines
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import write_plan

REASON = "a smoke test: its model is thrown away"
LOST = (
    ": the job writes there, but no volume is mounted at or above it (the job mounts no "
    "writable volume): what it writes is lost with the pods; mount a claim there "
    "(job.results {claimName, mountPath}, a dataset of the stack) or write under a mounted "
    "path"
)


def _experiment(name: str, **extra: Any) -> dict[str, Any]:
    """A CPU-only TFJob in `default` that saves its model to /models/NAME."""
    return {
        "name": name,
        **extra,
        "job": {
            "framework": "tensorflow",
            "image": {"name": "kubeflow/tf-mnist:1.0"},
            "command": ["python", "/mnist.py", "--model-dir", f"/models/{name}"],
            "worker": {"replicas": 1, "gpus": 0},
        },
    }


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> Plan:
    root = copy_project(tmp_path_factory.mktemp("review") / "project")
    directory = root / "experiments"
    for old in directory.iterdir():
        old.unlink()
    acknowledge = [{"warning": "unbackedWrite", "key": "job.command[2]", "reason": REASON}]
    matrix = {"axes": {"workers": "worker.replicas"}, "points": [{"workers": 2}, {"workers": 1}]}
    for experiment in (
        _experiment("a"),
        _experiment("b", acknowledge=acknowledge),
        _experiment("m", matrix={**matrix, "nameTemplate": "{name}-{workers}"}),
    ):
        (directory / f"{experiment['name']}.yaml").write_text(dump_yaml(experiment))
    config = stack_config(
        experiments={"select": ["b", "a"]},
        acknowledge=[
            {"warning": "hostNetwork", "key": "job.network.hostNetwork", "reason": "RDMA"}
        ],
    )
    (root / "stacks" / "Pulumi.test.yaml").write_text(dump_yaml({"config": config}))
    return plan_stack(Project.load(root), "test")


def _expected() -> dict[str, Any]:
    def finding(name: str) -> dict[str, str]:
        return {
            "check": "unbackedWrite",
            "source": f"experiments/{name}.yaml",
            "experiment": name,
            "key": "job.command[2]",
            "message": f"--model-dir /models/{name}{LOST}",
        }

    return {
        "format": "trainstack-review/1",
        "stackFile": "stacks/Pulumi.test.yaml",
        # By file: experiments/ before stacks/.
        "warnings": [
            finding("a"),
            {
                "check": "staleAcknowledgement",
                "source": "stacks/Pulumi.test.yaml",
                "experiment": "(stack)",
                "key": "trainstack:acknowledge[0].warning",
                "message": "hostNetwork at job.network.hostNetwork: the stack gives no such "
                "warning: remove the acknowledgement",
            },
        ],
        "acknowledged": [
            {
                **finding("b"),
                "reason": REASON,
                "acknowledgedIn": "experiments/b.yaml: acknowledge[0]",
            }
        ],
        # Matrix points in the file's order.
        "notSelected": [{"file": "experiments/m.yaml", "experiments": ["m-2", "m-1"]}],
    }


def test_review_json_records_what_a_reviewer_reads(plan: Plan, tmp_path: Path) -> None:
    written = write_plan(plan, tmp_path) / REVIEW_JSON
    expected = _expected()
    assert json.loads(written.read_bytes()) == expected
    # Canonical bytes: keys sorted at every level, two-space indents, a final newline.
    assert written.read_bytes() == (json.dumps(expected, indent=2, sort_keys=True) + "\n").encode()


def test_the_summary_names_acknowledged_and_unselected_experiments(plan: Plan) -> None:
    message = f"--model-dir /models/b{LOST}"
    assert review_lines(plan) == [
        f"acknowledged: experiments/b.yaml: experiment b: job.command[2]: {message} "
        f"[unbackedWrite] (acknowledged in experiments/b.yaml: acknowledge[0]: {REASON})",
        "not selected by this stack (2 experiment(s) of 1 file(s); "
        "trainstack:experiments.select in stacks/Pulumi.test.yaml):",
        "  experiments/m.yaml: m-2, m-1",
    ]
