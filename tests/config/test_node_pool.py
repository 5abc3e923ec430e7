"""The GPU node pool's rules: sizes, autoscaling bounds, taints, capacity."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.errors import ConfigError


def _pool(**changes: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:nodePool"].update(changes)
    return config


@pytest.mark.parametrize(
    ("changes", "path", "found", "allowed"),
    [
        ({"desiredSize": -2}, "trainstack:nodePool.desiredSize", "-2", "a number >= 0"),
        ({"desiredSize": "4 nodes"}, "trainstack:nodePool.desiredSize", '"4 nodes"', "an integer"),
        ({"desiredSize": 2.5}, "trainstack:nodePool.desiredSize", "2.5", "an integer"),
        ({"gpusPerNode": 0}, "trainstack:nodePool.gpusPerNode", "0", "a number >= 1"),
        ({"gpusPerNode": 17}, "trainstack:nodePool.gpusPerNode", "17", "a number <= 16"),
        (
            {"instanceTypes": ["gn6e-c12g1.12xlarge"]},
            "trainstack:nodePool.instanceTypes[0]",
            '"gn6e-c12g1.12xlarge"',
            "a string matching ^ecs\\.[a-z0-9-]+\\.[a-z0-9]+$",
        ),
        (
            {"taints": [{"key": "nvidia.com/gpu", "effect": "NoRun"}]},
            "trainstack:nodePool.taints[0].effect",
            '"NoRun"',
            "one of 'NoSchedule', 'PreferNoSchedule' or 'NoExecute'",
        ),
        (
            {"systemDisk": {"category": "cloud_essd", "sizeGib": 10}},
            "trainstack:nodePool.systemDisk.sizeGib",
            "10",
            "a number >= 20",
        ),
        (
            {"memoryPerNode": "368GB"},
            "trainstack:nodePool.memoryPerNode",
            '"368GB"',
            "a string matching ^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$",
        ),
        (
            {"labels": {"trainstack.io/pool": "not a label value!"}},
            'trainstack:nodePool.labels["trainstack.io/pool"]',
            '"not a label value!"',
            "a string matching ^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 6, "maxSize": 2}},
            "trainstack:nodePool.autoscaling.minSize",
            "6",
            "<= maxSize (2)",
        ),
        (
            {"autoscaling": {"enabled": True, "minSize": 0, "maxSize": 2}},
            "trainstack:nodePool.desiredSize",
            "4",
            "between autoscaling.minSize (0) and autoscaling.maxSize (2)",
        ),
    ],
)
def test_invalid_pool(
    load: Loader, changes: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(_pool(**changes))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


def test_gpu_nodes_are_tainted_by_default(load: Loader) -> None:
    config = _pool()
    del config["trainstack:nodePool"]["taints"]
    taints = load(config).config.node_pool.taints
    assert [(t.key, t.value, t.effect) for t in taints] == [
        ("nvidia.com/gpu", "true", "NoSchedule")
    ]


def test_capacity_counts_the_largest_pool(load: Loader) -> None:
    fixed = load(_pool()).config.node_pool
    assert (fixed.max_nodes, fixed.gpu_capacity) == (4, 16)
    scaling = load(
        _pool(autoscaling={"enabled": True, "minSize": 2, "maxSize": 8})
    ).config.node_pool
    assert (scaling.max_nodes, scaling.gpu_capacity) == (8, 32)
