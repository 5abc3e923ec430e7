"""Every kind of cluster has a component for its pools, and a cloud's services where it has them."""

from __future__ import annotations

import typing

from components.cluster_provider import KUBECONFIG_FETCHERS
from components.node_pools import POOL_MAKERS
from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.registry import Cluster
from trainstack.plan.model import Plan


def _kinds() -> dict[str, type]:
    union = typing.get_args(Cluster)[0]
    return {
        typing.get_args(kind.model_fields["provider"].annotation)[0]: kind
        for kind in typing.get_args(union)
    }


def test_each_cluster_kind_has_a_pool_component_and_a_kubeconfig_source() -> None:
    kinds = _kinds()
    assert set(kinds) == {"alicloud", "existing"}
    assert set(POOL_MAKERS) == set(kinds)
    # A kind whose cloud gives a kubeconfig must say how the program fetches it.
    assert set(KUBECONFIG_FETCHERS) == {
        n for n, k in kinds.items() if k.kind.supports("kubeconfig-api")
    }
    assert kinds["alicloud"] is AlicloudCluster


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
