"""A pool's allocatable: derived by its cluster's kind from the capacity, or declared."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config, existing_cluster_config, with_gpu_pool
from trainstack.core.errors import ConfigError
from trainstack.core.quantity import parse_quantity
from trainstack.plan.summary_cluster import pool_lines

GPU = "trainstack:nodePools[0]"


def _first_pool_line(path: Path | None) -> int:
    """The line the first pool starts on in the stack file (the one after its key): where a
    key the pool does not set is named."""
    assert path is not None
    lines = path.read_text().splitlines()
    return next(i for i, text in enumerate(lines) if "trainstack:nodePools:" in text) + 2


def _problem(load: Loader, config: dict[str, Any]) -> Any:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(config)
    (problem,) = caught.value.problems
    return problem


def test_the_example_gpu_nodes_offer_less_than_their_instance(load: Loader) -> None:
    config = load(example_config("aiacc")).config
    gpu, cpu = (config.allocatable(pool) for pool in config.node_pools)
    assert gpu.cpu is not None and gpu.memory is not None
    assert gpu.cpu.allocatable == Decimal("47.81")
    # 376832Mi - 3071Mi (11 x 256 pods + 255) - 300Mi eviction threshold
    assert gpu.memory.allocatable == parse_quantity("373461Mi")
    assert cpu.cpu is not None and cpu.cpu.allocatable == Decimal("7.91")


def test_the_cluster_version_is_needed_to_derive_it(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:cluster"]["kubernetesVersion"]
    problem = _problem(load, config)
    assert problem.path == "trainstack:cluster.kubernetesVersion"
    assert problem.allowed.endswith("or declare nodePools[0].allocatable")


def test_versions_before_acks_documented_policy_are_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:cluster"]["kubernetesVersion"] = "1.18"  # workload 1's walkthrough
    problem = _problem(load, config)
    assert (problem.path, problem.found) == ("trainstack:cluster.kubernetesVersion", '"1.18"')


def test_from_1_28_the_memory_reservation_needs_max_pods(load: Loader) -> None:
    problem = _problem(load, with_gpu_pool(maxPods=None))
    assert problem.path == f"{GPU}.maxPods"
    assert problem.allowed.endswith("or declare nodePools[0].allocatable.memory")


def test_before_1_28_max_pods_does_not_matter(load: Loader) -> None:
    config = with_gpu_pool(maxPods=None)
    config["trainstack:cluster"]["kubernetesVersion"] = "1.27.3-aliyun.1"
    stack = load(config).config
    allocatable = stack.allocatable(stack.node_pools[0])
    assert allocatable.cpu is not None and allocatable.cpu.allocatable == Decimal("46.8")
    # 25% of 4 GiB + 20% of 4 + 10% of 8 + 6% of 112 + 2% of 240 = 14459 MiB (rounded up)
    assert allocatable.memory is not None
    assert allocatable.memory.allocatable == parse_quantity("376832Mi") - parse_quantity(
        "14459Mi"
    ) - parse_quantity("300Mi")


def test_the_eviction_threshold_is_an_assumption_until_the_pool_sets_it(load: Loader) -> None:
    stack = load(example_config("aiacc")).config
    ((assumed, key),) = stack.allocatable(stack.node_pools[0]).assumed
    assert assumed.startswith("eviction threshold 300Mi on pool gpu-v100: ACK documents none")
    assert key == "nodePools[0].evictionThreshold"
    set_one = load(with_gpu_pool(evictionThreshold="100Mi")).config
    allocatable = set_one.allocatable(set_one.node_pools[0])
    assert allocatable.assumed == ()
    assert allocatable.memory is not None
    assert allocatable.memory.allocatable == parse_quantity("373661Mi")


def test_a_declared_allocatable_wins(load: Loader) -> None:
    stack = load(with_gpu_pool(allocatable={"cpu": "46", "memory": "350Gi"})).config
    allocatable = stack.allocatable(stack.node_pools[0])
    assert (allocatable.source, allocatable.assumed) == ("declared", ())
    assert allocatable.cpu is not None and allocatable.cpu.key == "nodePools[0].allocatable.cpu"
    assert allocatable.cpu.allocatable == 46


def test_an_existing_cluster_must_declare_it(load: Loader) -> None:
    config = existing_cluster_config()
    del config["trainstack:nodePools"][0]["allocatable"]
    problem = _problem(load, config)
    assert problem.path == f"{GPU}.allocatable.cpu"
    assert "on an existing cluster trainstack cannot derive it from cpuPerNode" in problem.allowed
    assert problem.allowed.endswith("under Allocatable")


def test_the_plan_shows_capacity_and_allocatable_per_pool(load: Loader) -> None:
    stack = load(example_config("aiacc"))
    lines = pool_lines(stack.config, stack.source, stack.files)
    assert lines[0] == (
        "pool gpu-v100: 4 node(s) x 4 V100 = 16 GPUs, NVIDIA driver 550.144.03; per node: "
        "capacity 48 CPU, 368Gi; "
        "allocatable 47.81 CPU, 364.708Gi (ACK's resource reservation policy for Kubernetes "
        "1.35, max pods 256, https://www.alibabacloud.com/help/en/ack/"
        "ack-managed-and-ack-dedicated/user-guide/resource-reservation-policy)"
    )
    assert lines[1] == (
        "  assumed, not verified: eviction threshold 300Mi on pool gpu-v100: ACK documents "
        "none, inferred from its own example; set "
        f"{stack.source}:{_first_pool_line(stack.path)}: "
        "trainstack:nodePools[0].evictionThreshold"
    )
