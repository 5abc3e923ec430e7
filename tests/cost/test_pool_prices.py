"""What a node of each pool costs: the stack's entries, then the cluster kind's list."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from tests.experiment_helpers import load
from tests.stack_helpers import example_config, existing_cluster_config
from trainstack.cost.pool_prices import pool_prices

READ = {"source": "ECS console, buy page", "readOn": "2026-12-06"}
GPU = {"instanceType": "ecs.gn6e-c12g1.12xlarge", "payAsYouGo": "30.125", **READ}
CPU = {"instanceType": "ecs.g7.2xlarge", "payAsYouGo": "1.5", **READ}


def aiacc(cost: dict[str, Any] | None = None) -> Any:
    config = example_config("aiacc")
    if cost is not None:
        config["trainstack:cost"] = cost
    return load(config).config


def test_the_examples_pools_are_unpriced_until_their_placeholders_are_set() -> None:
    gpu, cpu = pool_prices(aiacc())
    for pool, instance_type in ((gpu, "ecs.gn6e-c12g1.12xlarge"), (cpu, "ecs.g7.2xlarge")):
        assert pool.per_node is None and pool.per_hour is None
        (used,) = pool.placeholders
        assert used.where == "trainstack/config/clusters/alicloud_prices.py"
        assert pool.unpriced == (
            f"the price of {instance_type} in cn-beijing is a placeholder (set before deploying)"
        )


def test_the_stacks_entries_price_the_example_pools() -> None:
    gpu, cpu = pool_prices(aiacc({"prices": [GPU, CPU]}))
    # gpu-v100: 4 nodes x 30.125 = 120.50 per hour; one of its 4 GPUs: 30.125 / 4 = 7.53125.
    assert (gpu.nodes, gpu.per_node, gpu.per_hour) == (4, Decimal("30.125"), Decimal("120.500"))
    assert gpu.per_gpu_hour == Decimal("7.53125")
    # cpu: 2 nodes x 1.5 = 3.0 per hour, no GPU to price.
    assert (cpu.per_hour, cpu.per_gpu_hour) == (Decimal("3.0"), None)
    assert gpu.used[0].where == "trainstack:cost.prices[0]"


def test_the_clusters_region_comes_before_every_region() -> None:
    elsewhere = {**GPU, "region": "cn-hangzhou", "payAsYouGo": "99"}
    beijing = {**GPU, "region": "cn-beijing", "payAsYouGo": "31"}
    gpu, _ = pool_prices(aiacc({"prices": [GPU, elsewhere, beijing]}))
    assert gpu.per_node == Decimal(31)
    gpu, _ = pool_prices(aiacc({"prices": [elsewhere, GPU]}))
    assert gpu.per_node == Decimal("30.125")


def test_a_pool_of_several_types_costs_the_highest_only_when_each_is_priced() -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["instanceTypes"].append("ecs.gn6v-c8g1.16xlarge")
    other = {**GPU, "instanceType": "ecs.gn6v-c8g1.16xlarge", "payAsYouGo": "40"}
    config["trainstack:cost"] = {"prices": [GPU, CPU]}
    gpu, _ = pool_prices(load(copy.deepcopy(config)).config)
    assert gpu.per_node is None
    assert gpu.unpriced.startswith("ecs.gn6v-c8g1.16xlarge in cn-beijing: no entry in ACK's")
    config["trainstack:cost"] = {"prices": [GPU, CPU, other]}
    gpu, _ = pool_prices(load(config).config)
    assert (gpu.per_node, gpu.varies) == (Decimal(40), True)


def test_the_kinds_list_counts_only_in_its_currency() -> None:
    gpu, _ = pool_prices(aiacc({"currency": "USD", "prices": [CPU]}))
    assert gpu.per_node is None
    assert "the cluster kind's price list is in CNY, the stack counts in USD" in gpu.unpriced


def test_an_existing_clusters_pool_has_no_price_but_its_own() -> None:
    config = existing_cluster_config()
    (pool,) = pool_prices(load(copy.deepcopy(config)).config)
    assert pool.per_node is None
    assert pool.unpriced.startswith(
        "pool gpu-v100 has no instance type: an existing cluster's nodes (on premises"
    )
    entry = {"pool": "gpu-v100", "payAsYouGo": "20", **READ}
    config["trainstack:cost"] = {"currency": "EUR", "prices": [entry]}
    (pool,) = pool_prices(load(config).config)
    assert (pool.per_hour, pool.per_gpu_hour) == (Decimal(80), Decimal(5))
