"""An existing cluster: its nodes exist, so nothing about creating them applies."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import existing_cluster_config
from trainstack.core.errors import ConfigError


def test_existing_cluster_configuration_loads(load: Loader) -> None:
    stack = load(existing_cluster_config())
    assert stack.config.cluster.provider == "existing"
    assert stack.config.cluster.kubeconfig_context == "onprem"


def test_existing_cluster_cannot_buy_instances(load: Loader) -> None:
    config = existing_cluster_config()
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
    config = existing_cluster_config()
    config["trainstack:nodePools"][0][key] = value
    with pytest.raises(ConfigError, match="nodes are not created") as caught:
        load(config)
    assert caught.value.problems[0].path == f"trainstack:nodePools[0].{key}"
