"""Rules that span sections: what each cluster provider allows."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.core.errors import ConfigError

EXISTING = {"provider": "existing", "context": "onprem"}


def _on_existing_cluster() -> dict:
    config = example_config("baseline")
    config["trainstack:cluster"] = dict(EXISTING)
    pool = config["trainstack:nodePools"][0]
    del pool["instanceTypes"], pool["systemDisk"], pool["login"]
    config["trainstack:nodePools"] = [pool]
    config["trainstack:datasets"][0]["source"] = {
        "type": "nfs",
        "server": "netapp.example.internal",
        "path": "/imagenet",
    }
    return config


def test_existing_cluster_configuration_loads(load: Loader) -> None:
    stack = load(_on_existing_cluster())
    assert stack.config.cluster.provider == "existing"


def test_ack_needs_instance_types(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][1]["instanceTypes"] = []
    with pytest.raises(ConfigError, match="at least one ECS instance type") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:nodePools[1].instanceTypes"


def test_existing_cluster_cannot_buy_instances(load: Loader) -> None:
    config = _on_existing_cluster()
    config["trainstack:nodePools"][0]["instanceTypes"] = ["ecs.gn6e-c12g1.12xlarge"]
    with pytest.raises(ConfigError, match="nodes are not created") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:nodePools[0].instanceTypes"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("login", {"keyName": "trainstack-nodes"}),
        ("systemDisk", {"category": "cloud_essd", "sizeGib": 200}),
        ("autoscaling", {"enabled": True, "minSize": 1, "maxSize": 4}),
    ],
)
def test_existing_cluster_pools_create_nothing(load: Loader, key: str, value: dict) -> None:
    config = _on_existing_cluster()
    config["trainstack:nodePools"][0][key] = value
    with pytest.raises(ConfigError, match="nodes are not created") as caught:
        load(config)
    assert caught.value.problems[0].path == f"trainstack:nodePools[0].{key}"


def test_nodes_on_ack_are_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["nodes"] = ["a", "b", "c", "d"]
    with pytest.raises(ConfigError, match="ACK creates and names the nodes") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:nodePools[0].nodes"


def test_node_list_matches_desired_size(load: Loader) -> None:
    config = _on_existing_cluster()
    config["trainstack:nodePools"][0]["nodes"] = ["node1", "node2"]
    with pytest.raises(ConfigError, match=r"the number of nodes listed \(2\)") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("trainstack:nodePools[0].desiredSize", "4")


def test_ack_addon_needs_ack(load: Loader) -> None:
    config = _on_existing_cluster()
    config["trainstack:acceleration"] = {
        "enabled": True,
        "component": {"kind": "ack-addon", "name": "example-addon", "version": "1.0.0"},
    }
    with pytest.raises(ConfigError, match="`helm` on an existing cluster") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:acceleration.component.kind"


def test_new_nas_needs_ack(load: Loader) -> None:
    config = _on_existing_cluster()
    create = {"zoneId": "cn-beijing-h"}
    config["trainstack:datasets"][0]["source"] = {"type": "alicloud-nas", "create": create}
    with pytest.raises(ConfigError, match="existing NAS") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:datasets[0].source.create"


@pytest.mark.parametrize(
    ("cluster", "path"),
    [
        ({"provider": "gke"}, "trainstack:cluster.provider"),
        (
            {
                "provider": "alicloud",
                "clusterId": "c5e1f8a2b7",
                "region": "cn-beijing",
                "vpcId": "vpc-abc",
                "vswitchIds": [],
            },
            "trainstack:cluster.vswitchIds",
        ),
        (
            {
                "provider": "alicloud",
                "clusterId": "cluster-1",
                "region": "cn-beijing",
                "vpcId": "vpc-abc",
                "vswitchIds": ["vsw-abc"],
            },
            "trainstack:cluster.clusterId",
        ),
    ],
)
def test_invalid_cluster(load: Loader, cluster: dict, path: str) -> None:
    config = example_config("aiacc")
    config["trainstack:cluster"] = cluster
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert [p.path for p in caught.value.problems] == [path]


@pytest.mark.parametrize(
    ("key", "path"),
    [("namespace", "namespace"), ("sharedWith", "sharedWith[0]")],
)
def test_a_claim_needs_a_namespace_the_stack_creates(load: Loader, key: str, path: str) -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0][key] = ["ghost"] if key == "sharedWith" else "ghost"
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (f"trainstack:datasets[0].{path}", '"ghost"')
    assert problem.allowed.startswith("a namespace that exists: default, or a team's namespace")
    assert "(nlp, vision)" in problem.allowed
