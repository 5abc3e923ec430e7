"""GpuNodePool, through the real program under the mock engine."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config, only
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

NODE_POOL = "alicloud:cs/nodePool:NodePool"
NODE_PATCH = "kubernetes:core/v1:NodePatch"


def test_ack_pool_matches_workload_one(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        pool = only(plan, NODE_POOL).inputs
        assert pool["instanceTypes"] == ["ecs.gn6e-c12g1.12xlarge"]
        assert pool["desiredSize"] == "4"
        assert "scalingConfig" not in pool
        assert pool["taints"] == [
            {"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}
        ]
        assert pool["labels"] == [{"key": "trainstack.io/pool", "value": "gpu-v100"}]
        assert pool["clusterId"] == plan.stack.config.cluster.cluster_id  # type: ignore[union-attr]
        assert (pool["systemDiskCategory"], pool["systemDiskSize"]) == ("cloud_essd", 200)


def test_autoscaling_pool_leaves_the_size_to_the_autoscaler(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePool"]["autoscaling"] = {"enabled": True, "minSize": 1, "maxSize": 8}
    pool = only(plan_stack(write_stack(config), "test"), NODE_POOL).inputs
    assert "desiredSize" not in pool
    assert pool["scalingConfig"] == {"enable": True, "minSize": 1, "maxSize": 8, "type": "gpu"}


def test_existing_cluster_labels_and_taints_listed_nodes(write_stack: StackWriter) -> None:
    config = example_config("baseline")
    config["trainstack:cluster"] = {"provider": "existing", "context": "onprem"}
    pool = config["trainstack:nodePool"]
    del pool["instanceTypes"], pool["systemDisk"]
    pool.update(desiredSize=2, gpusPerNode=8, nodes=["node1", "node2"])
    config["trainstack:datasets"] = []
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    assert plan.of_type(NODE_POOL) == []
    patches = {p.inputs["metadata"]["name"]: p.inputs for p in plan.of_type(NODE_PATCH)}
    assert sorted(patches) == ["node1", "node2"]
    for patch in patches.values():
        assert patch["metadata"]["labels"] == {"trainstack.io/pool": "gpu-v100"}
        assert patch["spec"]["taints"] == [
            {"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}
        ]


def test_existing_cluster_without_nodes_changes_no_node(write_stack: StackWriter) -> None:
    config = example_config("baseline")
    config["trainstack:cluster"] = {"provider": "existing"}
    del config["trainstack:nodePool"]["instanceTypes"], config["trainstack:nodePool"]["systemDisk"]
    config["trainstack:datasets"] = []
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    assert plan.of_type(NODE_PATCH) == [] and plan.of_type(NODE_POOL) == []
    only(plan, "trainstack:infra:GpuNodePool")
