from __future__ import annotations

import pytest

from trainstack.core.errors import TrainstackError
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.health.targets import node_targets, offline_members, spans, used_pools


def test_the_pools_and_shapes_of_the_aiacc_experiments() -> None:
    resolved = load_stack_experiments(Project.find(), "aiacc")
    pools = used_pools(resolved)
    assert [pool.name for pool in pools] == ["gpu-v100"]
    shapes = {span.name: span.experiments for span in spans(resolved, pools)}
    assert shapes["gpu-v100: 4 pods x 4 GPUs"] == ("imagenet-tensorflow",)
    assert all(name.startswith("gpu-v100: ") for name in shapes)


def test_offline_members_are_declared_names_or_placeholders() -> None:
    resolved = load_stack_experiments(Project.find(), "aiacc")
    pools = used_pools(resolved)
    members = offline_members(resolved.stack.config, pools)
    assert members["gpu-v100"][0] == "<node 1 of pool gpu-v100>"
    assert len(members["gpu-v100"]) == 4


def test_nodes_asked_for_must_be_of_the_pools() -> None:
    resolved = load_stack_experiments(Project.find(), "onprem")
    pools = used_pools(resolved)
    members = {"dgx-v100": ["node2", "node1"]}
    assert [t.node for t in node_targets(pools, members, [])] == ["node1", "node2"]
    assert [t.node for t in node_targets(pools, members, ["node2"])] == ["node2"]
    with pytest.raises(TrainstackError, match="--node: found node3; allowed: .*node1, node2"):
        node_targets(pools, members, ["node3"])
