"""AckNodePool: built alone from minimal arguments, and through the real program under the
mock engine."""

from __future__ import annotations

from typing import Any

import pytest

from components.clusters.ack_node_pool import AckNodePool, AckNodePoolArgs
from tests.components.minimal import ACK_CLUSTER, ack_pool
from tests.components.mock_engine import Registered, build, secret, value
from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

NODE_POOL = "alicloud:cs/nodePool:NodePool"


def _pools(plan: Plan) -> dict[str, dict]:
    return {pool.name: pool.inputs for pool in plan.of_type(NODE_POOL)}


def _alone(**keys: Any) -> tuple[AckNodePool, Registered]:
    return build(lambda: AckNodePool("gpu", AckNodePoolArgs(ack_pool(**keys), ACK_CLUSTER)))


def test_a_pool_from_minimal_arguments_is_one_node_pool_of_the_cluster() -> None:
    made, registered = _alone()
    component = registered.one("trainstack:infra:AckNodePool")
    node_pool = registered.one(NODE_POOL)
    assert len(registered.resources) == 2
    assert (component.type, component.name) == ("trainstack:infra:AckNodePool", "gpu")
    assert (node_pool.type, node_pool.name) == (NODE_POOL, "gpu-pool")
    assert "trainstack:infra:AckNodePool$alicloud:cs/nodePool:NodePool" in node_pool.urn
    assert node_pool.inputs == {
        "clusterId": "c0123456789",
        "nodePoolName": "gpu",
        "instanceTypes": ["ecs.gn7-c12g1.3xlarge"],
        "vswitchIds": ["vsw-1", "vsw-2"],
        "desiredSize": "2",
        "labels": [],
        "taints": [{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}],
        # ACK's defaults, from its kind (the generic pool has none)
        "systemDiskCategory": "cloud_essd",
        "systemDiskSize": 120,
        "keyName": "ops",
    }
    assert value(made.node_pool_id) == "gpu-pool-id"


def test_a_pinned_driver_is_acks_node_pool_label() -> None:
    node_pool = _alone(labels={"pool": "gpu"}, nvidiaDriver="550.144.03")[1].one(NODE_POOL)
    # ACK installs the driver its label names on the pool's nodes as they join
    assert node_pool.inputs["labels"] == [
        {"key": "ack.aliyun.com/nvidia-driver-version", "value": "550.144.03"},
        {"key": "pool", "value": "gpu"},
    ]


@pytest.mark.parametrize(("gpus", "kind"), [(8, "gpu"), (0, "cpu")])
def test_autoscaling_from_minimal_arguments(gpus: int, kind: str) -> None:
    scaling = {"enabled": True, "minSize": 1, "maxSize": 4}
    model = {"gpuModel": "A100"} if gpus else {"gpuModel": None}
    node_pool = _alone(autoscaling=scaling, gpusPerNode=gpus, **model)[1].one(NODE_POOL)
    assert "desiredSize" not in node_pool.inputs
    assert node_pool.inputs["scalingConfig"] == {
        "enable": True,
        "minSize": 1,
        "maxSize": 4,
        "type": kind,
    }


def test_a_password_login_is_read_from_the_secret_config_key() -> None:
    pool = ack_pool(login={"passwordSecret": "trainstack:nodePassword"})
    _, registered = build(
        lambda: AckNodePool("gpu", AckNodePoolArgs(pool, ACK_CLUSTER)),
        config={"trainstack:nodePassword": "Sup3r-secret"},
        secret_keys=("trainstack:nodePassword",),
    )
    node_pool = registered.one(NODE_POOL)
    assert node_pool.inputs["password"] == secret("Sup3r-secret")
    assert "keyName" not in node_pool.inputs


def test_ack_pools_match_workload_one_plus_a_cpu_pool(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        pools = _pools(plan)
        assert sorted(pools) == ["cpu-pool", "gpu-v100-pool"]
        gpu, cpu = pools["gpu-v100-pool"], pools["cpu-pool"]
        assert gpu["instanceTypes"] == ["ecs.gn6e-c12g1.12xlarge"]
        assert gpu["desiredSize"] == "4"
        assert "scalingConfig" not in gpu
        assert gpu["taints"] == [{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}]
        # the V100s pinned to a driver of a branch that still runs Volta
        assert gpu["labels"] == [
            {"key": "ack.aliyun.com/nvidia-driver-version", "value": "550.144.03"},
            {"key": "trainstack.io/pool", "value": "gpu-v100"},
        ]
        # the pools join the cluster the stack creates: its ID is known once it exists
        assert gpu["clusterId"] == "[computed]"
        assert (gpu["systemDiskCategory"], gpu["systemDiskSize"]) == ("cloud_essd", 200)
        assert (
            gpu["keyName"] == "<ECS key pair the nodes accept (create it in cn-beijing)>"
            and "password" not in gpu
        )
        # The CPU pool: a general-purpose instance type, no GPU taint.
        assert cpu["instanceTypes"] == ["ecs.g7.2xlarge"]
        assert (cpu["desiredSize"], cpu["taints"]) == ("2", [])
        assert cpu["labels"] == [{"key": "trainstack.io/pool", "value": "cpu"}]


def test_autoscaling_pool_leaves_the_size_to_the_autoscaler(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["autoscaling"] = {
        "enabled": True,
        "minSize": 1,
        "maxSize": 8,
    }
    config["trainstack:nodePools"][1]["autoscaling"] = {
        "enabled": True,
        "minSize": 1,
        "maxSize": 3,
    }
    pools = _pools(plan_stack(write_stack(config), "test"))
    assert "desiredSize" not in pools["gpu-v100-pool"]
    assert pools["gpu-v100-pool"]["scalingConfig"] == {
        "enable": True,
        "minSize": 1,
        "maxSize": 8,
        "type": "gpu",
    }
    assert pools["cpu-pool"]["scalingConfig"]["type"] == "cpu"


def test_a_password_login_stays_a_secret(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["login"] = {"passwordSecret": "trainstack:nodePassword"}
    config["trainstack:nodePassword"] = {"secure": "v1:ciphertext"}
    pool = _pools(plan_stack(write_stack(config), "test"))["gpu-v100-pool"]
    assert pool["password"] == "[secret]"
    assert "keyName" not in pool


def test_the_first_gpu_pool_takes_over_the_former_pools_urns(
    example_plans: dict[str, Plan],
) -> None:
    # Stacks made with one `nodePool` had GpuNodePool "gpu" / NodePool "gpu-pool": the
    # aliases keep `pulumi up` from replacing those nodes. The mock engine records the
    # registration, not the alias, so the names are what a reader can check here.
    plan = example_plans["aiacc"]
    components = {r.name for r in plan.of_type("trainstack:infra:AckNodePool")}
    assert components == {"gpu-v100", "cpu"}
