"""ACK's side of the program, each function built alone from minimal arguments, the
answers to its invokes set here."""

from __future__ import annotations

import json

import pulumi
import pytest

from components.clusters.alicloud import ack_addon, file_system, kubeconfig, node_pool
from tests.components.minimal import ACK_CLUSTER, ack_pool
from tests.components.mock_engine import build, value
from trainstack.config.clusters.alicloud import KIND
from trainstack.config.datasets import Dataset

CREDENTIAL = "alicloud:cs/getClusterCredential:getClusterCredential"


def test_the_kubeconfig_is_read_from_ack_for_the_cluster() -> None:
    made, registered = build(
        lambda: kubeconfig(ACK_CLUSTER), invokes={CREDENTIAL: {"kubeConfig": "kc"}}
    )
    assert registered.calls == [CREDENTIAL]
    assert value(made) == "kc"
    assert registered.resources == []  # an invoke, no resource


def test_the_offline_plan_answers_every_invoke_acks_components_make() -> None:
    made, registered = build(lambda: kubeconfig(ACK_CLUSTER), invokes=KIND.offline_invokes)
    assert set(registered.calls) <= set(KIND.offline_invokes)
    assert value(made) == "[kubeconfig fetched from ACK at deploy time]"


def test_a_pool_is_an_ack_node_pool_whose_id_is_the_pools() -> None:
    made, registered = build(lambda: node_pool(ack_pool(), ACK_CLUSTER, None, False))  # type: ignore[arg-type]
    assert [r.type for r in registered.resources] == [
        "trainstack:infra:AckNodePool",
        "alicloud:cs/nodePool:NodePool",
    ]
    assert made is not None and value(made) == "gpu-pool-id"


@pytest.mark.parametrize(
    ("config", "expected"),
    [({}, None), ({"threads": 4}, '{"threads": 4}'), ({"b": 1, "a": 2}, '{"a": 2, "b": 1}')],
)
def test_an_add_on_is_pinned_on_the_cluster(config: dict, expected: str | None) -> None:
    def make() -> pulumi.CustomResource:
        options = pulumi.ResourceOptions()
        return ack_addon(
            "arena", ACK_CLUSTER, addon="ack-arena", version="0.14.2", config=config, opts=options
        )

    addon = build(make)[1].one("alicloud:cs/kubernetesAddon:KubernetesAddon")
    assert addon.name == "arena"
    assert {k: addon.inputs.get(k) for k in ("clusterId", "name", "version", "config")} == {
        "clusterId": "c0123456789",
        "name": "ack-arena",
        "version": "0.14.2",
        "config": expected,
    }
    if expected is not None:
        assert json.loads(expected) == config


@pytest.mark.parametrize(("vswitch", "used"), [(None, "vsw-1"), ("vsw-2", "vsw-2")])
def test_a_datasets_file_system_is_in_the_clusters_vpc(vswitch: str | None, used: str) -> None:
    create = {"zoneId": "cn-beijing-h", **({"vswitchId": vswitch} if vswitch else {})}
    dataset = Dataset.model_validate(
        {"name": "scratch", "capacity": "1Ti", "source": {"type": "alicloud-nas", "create": create}}
    )

    _, registered = build(
        lambda: file_system("scratch", dataset, ACK_CLUSTER, pulumi.ResourceOptions())
    )
    fs = registered.one("alicloud:nas/fileSystem:FileSystem")
    target = registered.one("alicloud:nas/mountTarget:MountTarget")
    assert fs.inputs["zoneId"] == "cn-beijing-h"
    assert fs.inputs["description"] == "scratch"
    assert (target.inputs["vpcId"], target.inputs["vswitchId"]) == ("vpc-1", used)
