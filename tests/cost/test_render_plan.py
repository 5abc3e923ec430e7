"""The plan's cost: pools and stack per hour, the experiments' table, the footer, and the
kind's placeholder prices listed under "set before deploying"."""

from __future__ import annotations

from pathlib import Path

from tests.cost.test_estimate import PRICES, planned
from trainstack.cost.estimate import stack_cost
from trainstack.cost.render_plan import (
    cost_footer,
    cost_lines,
    experiment_rows,
    price_placeholders,
)


def test_a_priced_stack_shows_each_figure(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {"prices": PRICES, "budget": {"perHour": 100}})
    cost = stack_cost("aiacc", config, experiments, {})
    assert cost_lines(cost) == [
        "cost (CNY; nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees; "
        "docs/cost.md):",
        "  pool gpu-v100: 4 node(s) of ecs.gn6e-c12g1.12xlarge at ¥30.125/h each "
        "(trainstack:cost.prices[0], read 2026-12-06) = ¥120.50/h, ¥7.53125 per GPU-hour",
        "  pool cpu: 2 node(s) of ecs.g7.2xlarge at ¥1.50/h each (trainstack:cost.prices[1], "
        "read 2026-12-06) = ¥3.00/h",
        "  stack aiacc: 16 GPUs, ¥123.50/h",
    ]
    assert experiment_rows(cost) == [
        [
            "imagenet-tensorflow",
            "16",
            "1h30m (expectedDuration)",
            "24.00",
            "¥180.75",
            "3",
            "72.00",
            "¥542.25",
        ]
    ]
    assert cost_footer(cost) == [
        "  campaign of aiacc: ¥542.25 (every run of every GPU experiment it deploys)",
        "  budget: its pools per hour ¥123.50, OVER trainstack:cost.budget.perHour (¥100.00)",
    ]
    assert price_placeholders(cost) == []


def test_an_unpriced_stack_says_why_once_and_lists_the_kinds_placeholders(
    tmp_path: Path,
) -> None:
    config, experiments = planned(tmp_path, {}, runs=1, expectedDuration=None)
    cost = stack_cost("aiacc", config, experiments, {})
    assert (
        cost_lines(cost)[-1]
        == "  stack aiacc: 16 GPUs, per hour unknown (2 pool(s) without a price)"
    )
    assert experiment_rows(cost)[0][2:] == [
        "unknown",
        "unknown",
        "unknown",
        "1",
        "unknown",
        "unknown",
    ]
    footer = cost_footer(cost)
    assert footer[0].startswith("  run length unknown (1 experiment(s)): declare expectedDuration")
    assert footer[1] == (
        "  per run unknown (1 experiment(s)): the price of ecs.gn6e-c12g1.12xlarge in "
        "cn-beijing is a placeholder (set before deploying)"
    )
    assert price_placeholders(cost) == [
        (
            "trainstack:cost.prices",
            "<pay-as-you-go price of ecs.g7.2xlarge in cn-beijing, CNY per hour> (for the cost "
            "figures only: `pulumi up` does not need it)",
        ),
        (
            "trainstack:cost.prices",
            "<pay-as-you-go price of ecs.gn6e-c12g1.12xlarge in cn-beijing, CNY per hour> (for "
            "the cost figures only: `pulumi up` does not need it)",
        ),
    ]
