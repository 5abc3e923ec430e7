"""What a change costs: two plans' figures, their differences, the new side's budget, and
each experiment's campaign over the stacks compared."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec

from tests.cost.test_estimate import PRICES
from tests.experiment_helpers import job, load, make_deployer, stack_config
from trainstack.cost.change import campaign_sides, campaigns, cost_change
from trainstack.cost.estimate import stack_cost
from trainstack.cost.record import CostFile, cost_file


def side(
    tmp_path: Path, stack: str = "aiacc", nodes: int = 4, runs: int = 3, **cost: Any
) -> CostFile:
    """``stack``'s plan figures with ``nodes`` GPU nodes and ``runs`` ImageNet runs of 1h."""
    config = stack_config(
        cost={"prices": PRICES, **cost},
        experiments={"runs": {"imagenet-tensorflow": {"count": runs}}},
    )
    config["trainstack:nodePools"][0]["desiredSize"] = nodes
    directory = tmp_path / f"{stack}-{nodes}-{runs}"
    directory.mkdir(exist_ok=True)
    deployment = make_deployer(directory)({**job(), "expectedDuration": "1h"}, config=config)
    return cost_file(stack_cost(stack, load(config).config, deployment.experiments, {}))


def test_two_more_gpu_nodes_cost_their_price(tmp_path: Path) -> None:
    change = cost_change(side(tmp_path), side(tmp_path, nodes=6), "aiacc@HEAD", "aiacc")
    assert change is not None and change.comparable
    # 4 -> 6 nodes of 4 GPUs: +8 GPUs; 2 x 30.125 = +60.25 an hour (123.50 -> 183.75).
    assert (change.gpus, change.per_hour) == (8, Decimal("60.25"))
    # A run of 16 GPUs for 1h costs what it did: its share of the nodes, not the pool.
    assert change.experiments == [] and change.campaign == Decimal("0.00")
    assert change.changed


def test_more_runs_change_the_campaign(tmp_path: Path) -> None:
    change = cost_change(side(tmp_path), side(tmp_path, runs=5), "aiacc@HEAD", "aiacc")
    assert change is not None
    (imagenet,) = change.experiments
    # A run: 16 GPU-h x 7.53125 = 120.50; 3 -> 5 runs: 361.50 -> 602.50, +241.00.
    assert (imagenet.before and imagenet.before.campaign) == "361.50"
    assert (imagenet.after and imagenet.after.campaign) == "602.50"
    assert change.campaign == Decimal("241.00") and imagenet.per_run == Decimal("0.00")


def test_a_change_over_the_budget_is_flagged(tmp_path: Path) -> None:
    budget = {"budget": {"perHour": "150"}}
    change = cost_change(
        side(tmp_path, **budget), side(tmp_path, nodes=6, **budget), "aiacc@HEAD", "aiacc"
    )
    assert change is not None
    (over,) = change.over_budget
    assert (over.key, over.figure, over.limit) == ("perHour", "183.75", "150")


def test_a_plan_without_cost_is_said_and_compares_nothing(tmp_path: Path) -> None:
    change = cost_change(None, side(tmp_path), "aiacc@HEAD", "aiacc")
    assert change is not None and not change.comparable
    assert change.per_hour is None and change.gpus is None
    assert change.notes == (
        "the plan aiacc@HEAD records no cost (made by a trainstack without cost.json): nothing "
        "to compare its cost with",
    )
    # A stack that did not exist on the old side has nothing to say about it.
    assert cost_change(None, side(tmp_path, nodes=5), "a", "b", (False, True)).notes == ()  # type: ignore[union-attr]
    # Two data stacks: no cost at all.
    assert cost_change(None, None, "imagenet@HEAD", "imagenet") is None


def test_different_currencies_are_not_compared(tmp_path: Path) -> None:
    usd = msgspec.structs.replace(side(tmp_path, nodes=5), currency="USD")
    change = cost_change(side(tmp_path), usd, "a", "b")
    assert change is not None and not change.comparable and change.per_hour is None
    assert change.notes[-1] == "a counts in CNY, b in USD: their figures are not compared"


def test_a_campaign_is_the_runs_on_every_stack_compared(tmp_path: Path) -> None:
    aiacc = side(tmp_path, "aiacc", runs=3)
    baseline = side(tmp_path, "baseline", runs=4)
    # `diff aiacc baseline`: the old side is another stack, so both count.
    change = cost_change(aiacc, baseline, "aiacc", "baseline")
    assert change is not None
    (campaign,) = campaigns(campaign_sides([change]))
    # 3 + 4 runs of 16 GPU-h at 120.50: 112 GPU-h, 843.50.
    assert [(stack, item.runs) for stack, item in campaign.parts] == [
        ("aiacc", 3),
        ("baseline", 4),
    ]
    assert (campaign.gpu_hours, campaign.cost) == (Decimal("112.00"), Decimal("843.50"))
    # `diff --base`: each stack's new side only.
    again = cost_change(side(tmp_path, "aiacc", nodes=5), aiacc, "aiacc@HEAD", "aiacc")
    assert again is not None
    (campaign,) = campaigns(campaign_sides([again]))
    assert [stack for stack, _ in campaign.parts] == ["aiacc"]
