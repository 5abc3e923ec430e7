"""Rules that span sections: pools, datasets and components on what the cluster offers."""

from __future__ import annotations

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config, existing_cluster_config
from trainstack.core.errors import ConfigError


def test_node_list_matches_desired_size(load: Loader) -> None:
    config = existing_cluster_config()
    config["trainstack:nodePools"][0]["nodes"] = ["node1", "node2"]
    with pytest.raises(ConfigError, match=r"the number of nodes listed \(2\)") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("trainstack:nodePools[0].desiredSize", "4")


def test_ack_addon_needs_ack(load: Loader) -> None:
    config = existing_cluster_config()
    config["trainstack:acceleration"] = {
        "enabled": True,
        "component": {"kind": "ack-addon", "name": "example-addon", "version": "1.0.0"},
    }
    with pytest.raises(ConfigError, match="`helm` on an existing cluster") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:acceleration.component.kind"


def test_new_nas_needs_ack(load: Loader) -> None:
    config = existing_cluster_config()
    create = {"zoneId": "cn-beijing-h"}
    config["trainstack:datasets"][0]["source"] = {"type": "alicloud-nas", "create": create}
    with pytest.raises(ConfigError, match="existing NAS") as caught:
        load(config)
    assert caught.value.problems[0].path == "trainstack:datasets[0].source.create"


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
