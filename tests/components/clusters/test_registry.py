"""Every kind of cluster has a component for its pools, and a cloud's services exactly
where its kind declares them."""

from __future__ import annotations

from components.clusters.registry import COMPONENTS
from trainstack.config.clusters.registry import KINDS
from trainstack.plan.model import Plan


def test_each_cluster_kind_has_its_components_and_only_its_capabilities() -> None:
    assert [entry.kind for entry in COMPONENTS] == list(KINDS)
    for entry in COMPONENTS:
        offered = {
            "kubeconfig-api": entry.kubeconfig is not None,
            "addons": entry.addon is not None,
            "nas": entry.file_system is not None,
        }
        assert offered == {name: entry.kind.supports(name) for name in offered}


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
