"""A plan's figures for the example stacks, computed by hand here and by the code there.

The example stack aiacc (4 x ecs.gn6e-c12g1.12xlarge with 4 V100 each, 2 x ecs.g7.2xlarge)
priced at test figures, not Alibaba's: 30.125 per GPU node-hour, 1.5 per CPU node-hour.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import job, load, make_deployer, stack_config
from trainstack.cost.estimate import run_length, stack_cost
from trainstack.cost.money import figure

READ = {"source": "ECS console, buy page", "readOn": "2026-12-06"}
PRICES = [
    {"instanceType": "ecs.gn6e-c12g1.12xlarge", "payAsYouGo": "30.125", **READ},
    {"instanceType": "ecs.g7.2xlarge", "payAsYouGo": "1.5", **READ},
]


def planned(tmp_path: Path, cost: dict[str, Any], runs: int = 3, **files: Any) -> Any:
    experiment = {**job(), "expectedDuration": "1h30m", **files}
    config = stack_config(cost=cost, experiments={"runs": {"imagenet-tensorflow": {"count": runs}}})
    deployment = make_deployer(tmp_path)(experiment, config=config)
    return load(config).config, deployment.experiments


def test_the_example_stack_per_hour_per_run_and_per_campaign(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {"prices": PRICES})
    cost = stack_cost("aiacc", config, experiments, {})
    # Pools: 4 x 30.125 = 120.50 plus 2 x 1.50 = 3.00: 123.50 an hour, 16 GPUs.
    assert (cost.gpus, figure(cost.per_hour)) == (16, "123.50")
    (imagenet,) = cost.experiments
    # A run: 4 workers x 4 GPUs = 16 GPUs for 1h30m = 24 GPU-hours; a GPU-hour is a node's
    # price over its 4 GPUs, 30.125 / 4 = 7.53125; 24 x 7.53125 = 180.75 per run.
    assert (imagenet.gpus, imagenet.runs, imagenet.length.origin) == (
        16,
        3,
        "expectedDuration 1h30m",
    )
    assert (figure(imagenet.gpu_hours), figure(imagenet.per_run)) == ("24.00", "180.75")
    # 3 runs: 72 GPU-hours, 3 x 180.75 = 542.25; the stack's campaign is that one experiment.
    assert (figure(imagenet.campaign_gpu_hours), figure(imagenet.campaign)) == ("72.00", "542.25")
    assert figure(cost.campaign) == "542.25"


def test_recorded_runs_count_instead_of_the_declared_length(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {"prices": PRICES})
    seconds = [Decimal(3000), Decimal(3600), Decimal(4000), Decimal(3700)]
    cost = stack_cost("aiacc", config, experiments, {"imagenet-tensorflow": seconds})
    (imagenet,) = cost.experiments
    # The median of 3000, 3600, 3700, 4000 s is (3600 + 3700) / 2 = 3650 s; 16 GPUs x 3650
    # s / 3600 = 16.2222... GPU-h; x 7.53125 = 122.1736... per run.
    assert imagenet.length.origin == "median of 4 recorded run(s)"
    assert (figure(imagenet.gpu_hours), figure(imagenet.per_run)) == ("16.22", "122.17")


def test_unknown_stays_unknown_never_zero(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {}, runs=1, expectedDuration=None)
    cost = stack_cost("aiacc", config, experiments, {})
    (imagenet,) = cost.experiments
    assert cost.per_hour is None and cost.campaign is None
    assert imagenet.gpu_hours is None and imagenet.per_run is None
    assert imagenet.length.origin == "no expectedDuration and no timed run recorded"
    assert imagenet.unpriced == (
        "the price of ecs.gn6e-c12g1.12xlarge in cn-beijing is a placeholder (set before deploying)"
    )


@pytest.mark.parametrize(
    ("per_hour", "campaign", "failed"),
    [("200", "600", []), ("100", "600", ["perHour"]), ("200", "500", ["perCampaign"])],
)
def test_the_budget_bounds_the_stack(
    tmp_path: Path, per_hour: str, campaign: str, failed: list[str]
) -> None:
    budget = {"perHour": per_hour, "perCampaign": campaign}
    config, experiments = planned(tmp_path, {"prices": PRICES, "budget": budget})
    checks = stack_cost("aiacc", config, experiments, {}).budget_checks()
    # 123.50 an hour against perHour; 542.25 against perCampaign.
    assert [check.key for check in checks if check.failed] == failed


def test_an_unknown_figure_fails_its_bound(tmp_path: Path) -> None:
    config, experiments = planned(tmp_path, {"budget": {"perHour": "200"}})
    (check,) = stack_cost("aiacc", config, experiments, {}).budget_checks()
    assert (check.figure, check.failed) == (None, True)


def test_a_declared_length_and_none() -> None:
    assert run_length("2h", []).seconds == Decimal(7200)
    assert run_length(None, [Decimal(1)]).origin == "median of 1 recorded run(s)"
    assert run_length(None, []).seconds is None
