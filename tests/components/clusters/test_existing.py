"""An existing cluster's side of the program, built alone from minimal arguments: its
nodes exist, so a pool patches the nodes it lists and has no ID; no invoke is made."""

from __future__ import annotations

import pytest

from components.clusters.existing import node_pool
from tests.components.minimal import EXISTING_CLUSTER, pool
from tests.components.mock_engine import build, provider

NODES = "trainstack:infra:ExistingNodes"
NODE_PATCH = "kubernetes:core/v1:NodePatch"


def test_a_pool_patches_its_nodes_through_the_clusters_provider_and_has_no_id() -> None:
    made, registered = build(
        lambda: node_pool(pool(nodes=["n1", "n2"]), EXISTING_CLUSTER, provider(), False)
    )
    assert made is None
    assert registered.calls == []
    component = registered.one(NODES)
    assert component.name == "gpu"
    patches = registered.children(component)
    assert sorted(p.name for p in patches) == ["gpu-n1", "gpu-n2"]
    assert {p.type for p in patches} == {NODE_PATCH}
    assert all(p.provider.startswith(registered.named("cluster").urn) for p in patches)


@pytest.mark.parametrize("former", [False, True])
def test_the_former_gpu_pool_keeps_its_urns(former: bool) -> None:
    _, registered = build(
        lambda: node_pool(pool(nodes=["n1"], desiredSize=1), EXISTING_CLUSTER, provider(), former)
    )
    assert registered.one(NODES).aliases == (("gpu",) if former else ())
    assert registered.one(NODE_PATCH).aliases == (("gpu-n1",) if former else ())
