"""An ACK cluster: what ACK's node pool API takes of a pool (ECS instance types, disk,
login) and requires, refused at plan time with the stack file, key and value."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import GPU_POOL, example_config, with_gpu_pool
from trainstack.config.clusters.alicloud import AckPool, regional_host
from trainstack.core.errors import ConfigError


# Each rule the Alibaba Cloud provider documents for cs.NodePool (terraform-provider-alicloud
# resource_alicloud_cs_kubernetes_node_pool.go, pulumi-alicloud cs.NodePool docs), refused
# at plan time with the stack file and key, in the words of the pool's own fields.
@pytest.mark.parametrize(
    ("changes", "path", "found", "allowed"),
    [
        (
            {"instanceTypes": ["gn6e-c12g1.12xlarge"]},
            f"{GPU_POOL}.instanceTypes[0]",
            '"gn6e-c12g1.12xlarge"',
            "a string matching ^ecs\\.[a-z0-9-]+\\.[a-z0-9]+$",
        ),
        (
            {"login": None},
            f"{GPU_POOL}.login",
            "null",
            "a login method ACK requires: `{keyName: <ECS key pair>}` or "
            "`{passwordSecret: trainstack:<key>}` naming a secret config key",
        ),
        (
            {"login": {}},
            f"{GPU_POOL}.login.keyName",
            "null",
            "exactly one of keyName (an ECS key pair) or passwordSecret (a secret config key)",
        ),
        (
            {"login": {"keyName": "trainstack-nodes", "passwordSecret": "trainstack:nodePassword"}},
            f"{GPU_POOL}.login.keyName",
            '"trainstack-nodes"',
            "exactly one of keyName (an ECS key pair) or passwordSecret (a secret config key)",
        ),
        (
            {"login": {"keyName": "http://keys"}},
            f"{GPU_POOL}.login.keyName",
            '"http://keys"',
            r"a string matching ^([A-Za-z][A-Za-z0-9._:-]{1,127}|<[^<>\n]{1,200}>)$",
        ),
        (
            {"login": {"passwordSecret": "nodePassword"}},
            f"{GPU_POOL}.login.passwordSecret",
            '"nodePassword"',
            "a string matching ^trainstack:[A-Za-z][A-Za-z0-9]*$",
        ),
        (
            {"systemDisk": {"category": "cloud_essd_xc0", "sizeGib": 200}},
            f"{GPU_POOL}.systemDisk.category",
            '"cloud_essd_xc0"',
            "one of 'cloud_essd', 'cloud_ssd', 'cloud_efficiency', 'cloud_auto', "
            "'cloud_essd_entry' or 'cloud'",
        ),
        (
            {"systemDisk": {"category": "cloud_essd", "sizeGib": 10}},
            f"{GPU_POOL}.systemDisk.sizeGib",
            "10",
            "20 to 2048 GiB for category cloud_essd",
        ),
        (
            {"systemDisk": {"sizeGib": 10}},
            f"{GPU_POOL}.systemDisk.sizeGib",
            "10",
            "20 to 2048 GiB for category cloud_essd",
        ),
        (
            {"systemDisk": {"category": "cloud", "sizeGib": 600}},
            f"{GPU_POOL}.systemDisk.sizeGib",
            "600",
            "20 to 500 GiB for category cloud",
        ),
        (
            {"systemDisk": {"category": "cloud_auto", "sizeGib": 4096}},
            f"{GPU_POOL}.systemDisk.sizeGib",
            "4096",
            "1 to 2048 GiB for category cloud_auto",
        ),
        (
            {"systemDisk": {"category": "cloud_essd", "sizeGib": 200, "iops": 3}},
            f"{GPU_POOL}.systemDisk.iops",
            'unknown key "iops"',
            "one of the known keys: category, sizeGib",
        ),
        (
            {"instanceTypes": []},
            f"{GPU_POOL}.instanceTypes",
            "[]",
            "at least one ECS instance type on alicloud",
        ),
        (
            {"taintPolicy": "force"},
            f"{GPU_POOL}.taintPolicy",
            '"force"',
            "nothing on alicloud (ACK taints the nodes)",
        ),
    ],
)
def test_provider_rules(
    load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(with_gpu_pool(**changes))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


def test_every_wrong_ack_key_of_a_pool_is_named_at_once(load: Loader) -> None:
    config = with_gpu_pool(instanceTypes=["gn6e"], systemDisk={"category": "ssd"})
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert [p.path for p in caught.value.problems] == [
        f"{GPU_POOL}.instanceTypes[0]",
        f"{GPU_POOL}.systemDisk.category",
    ]


def test_ack_needs_instance_types(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][1]["instanceTypes"] = []
    with pytest.raises(ConfigError, match="at least one ECS instance type") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:nodePools[1].instanceTypes"


def test_nodes_on_ack_are_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["nodes"] = ["a", "b", "c", "d"]
    with pytest.raises(ConfigError, match="ACK creates and names the nodes") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:nodePools[0].nodes"


def test_ack_reads_its_keys_of_a_pool_with_its_defaults(load: Loader) -> None:
    config = with_gpu_pool()
    del config["trainstack:nodePools"][0]["systemDisk"]
    gpu, cpu = load(config).config.node_pools
    assert gpu.system_disk is None  # the generic pool has no cloud's default
    ack = AckPool.of(gpu)
    assert (ack.system_disk.category, ack.system_disk.size_gib) == ("cloud_essd", 120)
    assert ack.instance_types == ["ecs.gn6e-c12g1.12xlarge"]
    assert ack.login is not None and ack.login.key_name == gpu.login.key_name
    assert AckPool.of(cpu).instance_types == ["ecs.g7.2xlarge"]


@pytest.mark.parametrize(
    ("host", "inside"),
    [
        ("registry.cn-beijing.aliyuncs.com", True),
        ("registry-vpc.cn-beijing.aliyuncs.com", True),
        ("cuda11-registry.cn-beijing.cr.aliyuncs.com", True),
        ("team-registry-vpc.cn-beijing.cr.aliyuncs.com", True),
        ("registry-cn-beijing.ack.aliyuncs.com", True),
        ("bucket.oss-cn-beijing-internal.aliyuncs.com", True),
        ("registry.cn-hangzhou.aliyuncs.com", False),
        ("x.cn-hangzhou.cr.aliyuncs.com", False),
        ("registry.k8s.io", False),
        ("docker.io", False),
        ("cn-beijing.cr.aliyuncs.com.evil.example", False),
    ],
)
def test_hosts_in_the_clusters_region(host: str, inside: bool) -> None:
    assert regional_host(host, "cn-beijing") is inside
