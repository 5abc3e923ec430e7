"""ExistingNodes: labels per key, the taint list per taintPolicy, nothing without nodes."""

from __future__ import annotations

from typing import Any

import pulumi_kubernetes as k8s
import pytest

from components.clusters.existing_nodes import ExistingNodes, ExistingNodesArgs
from tests.components.minimal import pool
from tests.components.mock_engine import build, value
from tests.conftest import StackWriter
from tests.stack_helpers import example_config
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

NODE_PATCH = "kubernetes:core/v1:NodePatch"
GPU_TAINT = [{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}]


def _patches(plan: Plan) -> dict[str, dict[str, Any]]:
    return {p.inputs["metadata"]["name"]: p.inputs for p in plan.of_type(NODE_PATCH)}


@pytest.mark.parametrize(
    ("policy", "annotations", "spec"),
    [
        ("apply", None, {"taints": GPU_TAINT}),
        ("force", {"pulumi.com/patchForce": "true"}, {"taints": GPU_TAINT}),
        ("none", None, None),
    ],
)
def test_from_minimal_arguments_a_patch_per_listed_node(
    policy: str, annotations: dict | None, spec: dict | None
) -> None:
    nodes = pool(nodes=["n1", "n2"], labels={"trainstack.io/pool": "gpu"}, taintPolicy=policy)

    def make() -> ExistingNodes:
        return ExistingNodes("gpu", ExistingNodesArgs(nodes, k8s.Provider("cluster")))

    made, registered = build(make)
    # By name: the SDK registers siblings from several threads, in no fixed order.
    patches = sorted(registered.of_type(NODE_PATCH), key=lambda p: p.name)
    assert [p.name for p in patches] == ["gpu-n1", "gpu-n2"]
    for patch, node in zip(patches, ("n1", "n2"), strict=True):
        assert "trainstack:infra:ExistingNodes$kubernetes:core/v1:NodePatch" in patch.urn
        metadata = {"name": node, "labels": {"trainstack.io/pool": "gpu"}}
        if annotations:
            metadata["annotations"] = annotations
        assert patch.inputs["metadata"] == metadata
        assert patch.inputs.get("spec") == spec
    assert value(made.node_names) == ["n1", "n2"]


def test_onprem_nodes_are_labelled_and_tainted_without_force(
    example_plans: dict[str, Plan],
) -> None:
    patches = _patches(example_plans["onprem"])
    assert sorted(patches) == ["node1", "node2"]
    for patch in patches.values():
        assert patch["metadata"]["labels"] == {"trainstack.io/pool": "dgx-v100"}
        # No force: another manager's taints make `pulumi up` fail instead of vanishing.
        assert "annotations" not in patch["metadata"]
        assert patch["spec"]["taints"] == GPU_TAINT
    assert example_plans["onprem"].of_type("alicloud:cs/nodePool:NodePool") == []


def _onprem(**pool: Any) -> dict[str, Any]:
    config = example_config("onprem")
    config["trainstack:nodePools"][0].update(pool)
    return config


def test_force_takes_the_taint_list_over_and_warns(write_stack: StackWriter) -> None:
    plan = plan_stack(write_stack(_onprem(taintPolicy="force")), "test")
    for patch in _patches(plan).values():
        assert patch["metadata"]["annotations"] == {"pulumi.com/patchForce": "true"}
        assert patch["spec"]["taints"] == GPU_TAINT
    (warning,) = [w for w in plan.warnings if w.key == "trainstack:nodePools[0].taintPolicy"]
    assert warning.message == (
        "force: `pulumi up` replaces the whole taint list of node1, node2 (Kubernetes keeps "
        "spec.taints as one atomic list): taints another manager set there (kubectl taint, "
        "a cloud controller) are removed"
    )


def test_none_leaves_taints_alone(write_stack: StackWriter) -> None:
    plan = plan_stack(write_stack(_onprem(taintPolicy="none")), "test")
    for patch in _patches(plan).values():
        assert "spec" not in patch
        assert patch["metadata"]["labels"] == {"trainstack.io/pool": "dgx-v100"}


def test_without_nodes_no_node_changes(write_stack: StackWriter) -> None:
    config = _onprem(nodes=[])
    plan = plan_stack(write_stack(config), "test")
    assert plan.of_type(NODE_PATCH) == []
    (component,) = plan.of_type("trainstack:infra:ExistingNodes")
    assert component.name == "dgx-v100"
