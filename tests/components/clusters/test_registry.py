"""Every kind of cluster has a component for its pools, and a cloud's services exactly
where its kind declares them."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s
import pytest

from components.clusters.registry import COMPONENTS, install_addon, node_pool
from tests.components.minimal import ACK_CLUSTER, EXISTING_CLUSTER, ack_pool, pool
from tests.components.mock_engine import build
from trainstack.config.clusters.registry import KINDS
from trainstack.plan.model import Plan


def test_each_cluster_kind_has_its_components_and_only_its_capabilities() -> None:
    assert [entry.kind for entry in COMPONENTS] == list(KINDS)
    for entry in COMPONENTS:
        offered = {
            "kubeconfig-api": entry.kubeconfig is not None,
            "addons": entry.addon is not None,
            "nas": entry.file_system is not None,
            "data-stacks": entry.data_store is not None,
        }
        assert offered == {name: entry.kind.supports(name) for name in offered}


@pytest.mark.parametrize(
    ("cluster", "made", "component"),
    [
        (ACK_CLUSTER, ack_pool(), "trainstack:infra:AckNodePool"),
        (EXISTING_CLUSTER, pool(nodes=["n1", "n2"]), "trainstack:infra:ExistingNodes"),
    ],
)
def test_a_pool_is_made_by_its_kind_and_has_an_id_where_the_cloud_makes_nodes(
    cluster: object, made: object, component: str
) -> None:
    def make() -> pulumi.Output[str] | None:
        return node_pool(made, cluster, k8s.Provider("cluster"), False)  # type: ignore[arg-type]

    made, registered = build(make)
    assert [r.name for r in registered.of_type(component)] == ["gpu"]
    assert (made is not None) == cluster.supports("node-api")  # type: ignore[attr-defined]


def test_a_service_a_kind_lacks_is_a_bug_not_an_assert() -> None:
    # The stack model refuses an add-on on such a kind first (tests/config/clusters).
    with pytest.raises(LookupError, match="an existing cluster has no addons"):
        install_addon(
            "arena",
            EXISTING_CLUSTER,
            addon="ack-arena",
            version="0.14.2",
            config={},
            opts=pulumi.ResourceOptions(),
        )


def test_ack_pools_are_created_and_existing_nodes_patched(
    example_plans: dict[str, Plan],
) -> None:
    def types(stack: str) -> set[str]:
        return {r.type for r in example_plans[stack].resources}

    assert "alicloud:cs/nodePool:NodePool" in types("aiacc")
    assert not any(t.endswith("NodePatch") for t in types("aiacc"))
    assert "kubernetes:core/v1:NodePatch" in types("onprem")
    assert "alicloud:cs/nodePool:NodePool" not in types("onprem")
    ids = example_plans["aiacc"].outputs["nodePoolIds"]
    assert len(ids) == 2  # the GPU pool and the CPU pool
    assert example_plans["onprem"].outputs["nodePoolIds"] == []
