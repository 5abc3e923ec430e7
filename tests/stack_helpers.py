"""Helpers for tests that read the example stacks and their plans."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from trainstack.core.yaml.io import read_yaml
from trainstack.plan.model import Plan, PlannedResource

REPO = Path(__file__).resolve().parents[1]


def example_config(stack: str) -> dict[str, Any]:
    """A mutable copy of an example stack's ``config:`` section, with the cluster template
    it names written out (``trainstack:cluster`` and ``trainstack:nodePools`` as the
    template has them), so that a test can change them and write the stack anywhere."""
    document = read_yaml(REPO / "stacks" / f"Pulumi.{stack}.yaml")
    config = copy.deepcopy(document["config"])
    template = config.pop("trainstack:clusterTemplate", None)
    if template is not None:
        for key, value in read_yaml(REPO / "stacks" / template).items():
            config[f"trainstack:{key}"] = value
    return config


def only(plan: Plan, type_token: str, name: str | None = None) -> PlannedResource:
    """The single resource of ``type_token`` (named ``name``) in ``plan`` (fails when there
    are 0 or several)."""
    found = [r for r in plan.of_type(type_token) if name is None or r.name == name]
    assert len(found) == 1, f"expected one {type_token}, found {[r.name for r in found]}"
    return found[0]


ACK_STACKS = ("aiacc", "baseline")


def with_data_stack(directory: Path) -> Path:
    """``directory`` holding the example data stack too (the ACK stacks read ``imagenet``)."""
    (directory / "Pulumi.imagenet.yaml").write_text(
        (REPO / "stacks" / "Pulumi.imagenet.yaml").read_text()
    )
    return directory


A100_POOL: dict[str, Any] = {
    "name": "gpu-a100",
    "instanceTypes": ["ecs.gn7-c12g1.3xlarge"],
    "gpusPerNode": 8,
    "gpuModel": "A100",
    "desiredSize": 1,
    "labels": {"trainstack.io/pool": "gpu-a100"},
    "login": {"keyName": "trainstack-nodes"},
}
"""A second GPU pool (one node of 8 x A100) for multi-pool tests; copy before changing."""

TRAINING_OPERATOR: dict[str, Any] = {"trainingOperator": {"version": "1.9.4"}}
"""`trainstack:operators` with training-operator alone: TFJob/PyTorchJob can be suspended."""
ARENA: dict[str, Any] = {"arena": {"version": "0.14.2"}}
"""`trainstack:operators` with ack-arena alone: its TFJob/PyTorchJob cannot be suspended
(and have no seccompProfile: jobs on it set ``security.seccompProfile: null``)."""


def on_ack_arena(stack: str) -> dict[str, Any]:
    """An example ACK stack as the seed had it: ack-arena serves the jobs (MPIJob
    v1alpha1, no seccompProfile), and only workload 1 runs. Kueue cannot hold ack-arena's
    jobs (no suspend), so team vision's quota covers all 16 GPUs and nlp is gone."""
    config = example_config(stack)
    config["trainstack:operators"] = copy.deepcopy(ARENA)
    config["trainstack:experiments"] = {
        "select": ["imagenet-tensorflow"],
        "overrides": {"imagenet-tensorflow": {"security": {"seccompProfile": None}}},
    }
    del config["trainstack:queueing"], config["trainstack:acknowledge"]
    (vision,) = [team for team in config["trainstack:teams"] if team["name"] == "vision"]
    vision["quota"] = {"gpu": 16, "cpu": "192", "memory": "1472Gi", "pods": 40}
    config["trainstack:teams"] = [vision]
    config["trainstack:datasets"] = config["trainstack:datasets"][:1]
    return config


GPU_POOL = "trainstack:nodePools[0]"
"""The key of the example ACK stacks' GPU pool."""


def with_gpu_pool(**changes: Any) -> dict[str, Any]:
    """The ``aiacc`` stack with ``changes`` (keys as written) to its GPU pool."""
    config = example_config("aiacc")
    config["trainstack:nodePools"][0].update(changes)
    return config


def existing_ack_config(stack: str = "aiacc") -> dict[str, Any]:
    """An example ACK stack on an existing ACK cluster (``clusterId``), as the examples
    were before they created their clusters: everything else as the template has it."""
    config = example_config(stack)
    cluster = config["trainstack:cluster"]
    del cluster["create"]
    cluster["clusterId"] = f"<ACK cluster ID of the {stack} cluster>"
    return config


def existing_cluster_config() -> dict[str, Any]:
    """The ``baseline`` stack on an existing cluster: one GPU pool without what creates
    nodes (instance types, disk, login, max pods) and with its allocatable declared, an NFS
    dataset."""
    config = example_config("baseline")
    config["trainstack:cluster"] = {"provider": "existing", "context": "onprem"}
    pool = config["trainstack:nodePools"][0]
    del pool["instanceTypes"], pool["systemDisk"], pool["login"], pool["maxPods"]
    # nothing derives an existing cluster's allocatable: it is declared (kubectl describe node)
    pool["allocatable"] = {"cpu": "47800m", "memory": "364Gi"}
    config["trainstack:nodePools"] = [pool]
    config["trainstack:datasets"][0]["source"] = {
        "type": "nfs",
        "server": "netapp.example.internal",
        "path": "/imagenet",
    }
    return config
