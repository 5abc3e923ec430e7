"""``cost.json`` of a plan directory: the stack's cost figures, as the plan computed them.

Written by ``trainstack plan`` beside ``resources.json``, read by ``trainstack diff`` to
show what a change costs. Every amount is a string of the exact decimal (prices as
written) or of the figure rounded to hundredths (see :mod:`trainstack.cost.money`), never
a float; ``null`` is unknown, never zero. A plan of an earlier trainstack has no
``cost.json``: the diff says so. Unknown fields are ignored (a later trainstack may add
some); a figure that is not a decimal of the allowed size fails the read, naming the item.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import msgspec

from trainstack.cost.estimate import BudgetCheck, ExperimentCost, StackCost
from trainstack.cost.money import figure, rate
from trainstack.cost.pool_prices import PoolPrice

COST_JSON = "cost.json"
COST_FORMAT = "trainstack-cost/1"
Figure = Annotated[str, msgspec.Meta(pattern=r"^-?[0-9]{1,30}\.[0-9]{2}$")]
"""A figure rounded to hundredths: ``1234.50``."""
Exact = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{1,13}(\.[0-9]{1,6})?$")]
"""An amount as written (a price, a budget) or a length in seconds: ``52.36``."""
Text = Annotated[str, msgspec.Meta(max_length=1024)]
Currency = Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{3}$")]


class PriceItem(msgspec.Struct, frozen=True, rename="camel"):
    """One price entry a pool is priced with."""

    subject: Text
    """``ecs.gn6e-c12g1.12xlarge in cn-beijing`` or ``pool dgx-v100``."""
    where: Text
    """``trainstack:cost.prices[0]`` or the cluster kind's module."""
    source: Text
    read_on: Text | None = None
    placeholder: Text | None = None
    """The placeholder the figure still is (``None``: a figure)."""


class PoolItem(msgspec.Struct, frozen=True, rename="camel"):
    """A pool: its size and its price."""

    pool: Text
    nodes: int
    max_nodes: int
    gpus_per_node: int
    instance_types: list[Text] = []
    per_node_hour: Exact | None = None
    spot_per_node_hour: Exact | None = None
    per_hour: Figure | None = None
    per_gpu_hour: Exact | None = None
    """A node's price over its GPUs, to at most six decimals."""
    prices: list[PriceItem] = []
    unpriced: Text | None = None


class ExperimentItem(msgspec.Struct, frozen=True, rename="camel"):
    """An experiment on the stack: a run's length, GPU-hours and cost, and its runs."""

    experiment: Text
    gpus: int
    runs: int
    pool: Text | None = None
    duration_seconds: Exact | None = None
    duration_from: Text = ""
    recorded_runs: int = 0
    gpu_hours_per_run: Figure | None = None
    per_run: Figure | None = None
    campaign_gpu_hours: Figure | None = None
    campaign: Figure | None = None
    unpriced: Text | None = None


class BudgetItem(msgspec.Struct, frozen=True, rename="camel"):
    """A figure of the stack against its bound in ``trainstack:cost.budget``."""

    what: Text
    key: Text
    limit: Exact
    figure: Figure | None = None
    over: bool = False
    """Over the bound, or unknown and so not checked."""


class CostFile(msgspec.Struct, frozen=True, rename="camel"):
    """``cost.json``."""

    stack: Text
    gpus: int
    currency: Currency | None = None
    format: Text = COST_FORMAT
    pricing: Text = "pay-as-you-go"
    per_hour: Figure | None = None
    campaign: Figure | None = None
    pools: list[PoolItem] = []
    experiments: list[ExperimentItem] = []
    budget: list[BudgetItem] = []


def amount(text: str | None) -> Decimal | None:
    """The decimal a figure of the file holds (``None``: unknown)."""
    return None if text is None else Decimal(text)


def _figure(value: Decimal | None) -> str | None:
    return None if value is None else figure(value)


def _exact(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:f}"


def cost_file(cost: StackCost) -> CostFile:
    """What ``cost.json`` holds for ``cost``."""
    return CostFile(
        stack=cost.stack,
        gpus=cost.gpus,
        currency=cost.currency,
        per_hour=_figure(cost.per_hour),
        campaign=_figure(cost.campaign),
        pools=[_pool(pool) for pool in cost.pools],
        experiments=[_experiment(experiment) for experiment in cost.experiments],
        budget=[_budget(check) for check in cost.budget_checks()],
    )


def _pool(pool: PoolPrice) -> PoolItem:
    return PoolItem(
        pool=pool.pool,
        nodes=pool.nodes,
        max_nodes=pool.max_nodes,
        gpus_per_node=pool.gpus_per_node,
        instance_types=list(pool.instance_types),
        per_node_hour=_exact(pool.per_node),
        spot_per_node_hour=_exact(pool.spot),
        per_hour=_figure(pool.per_hour),
        per_gpu_hour=None if pool.per_gpu_hour is None else rate(pool.per_gpu_hour),
        prices=[
            PriceItem(
                subject=used.entry.subject,
                where=used.where,
                source=used.entry.source,
                read_on=used.entry.read_on,
                placeholder=None
                if used.entry.figure is not None
                else str(used.entry.pay_as_you_go),
            )
            for used in pool.used
        ],
        unpriced=pool.unpriced or None,
    )


def _experiment(experiment: ExperimentCost) -> ExperimentItem:
    length = experiment.length
    return ExperimentItem(
        experiment=experiment.experiment,
        gpus=experiment.gpus,
        runs=experiment.runs,
        pool=experiment.pool,
        duration_seconds=_exact(length.seconds),
        duration_from=length.origin,
        recorded_runs=length.recorded,
        gpu_hours_per_run=_figure(experiment.gpu_hours),
        per_run=_figure(experiment.per_run),
        campaign_gpu_hours=_figure(experiment.campaign_gpu_hours),
        campaign=_figure(experiment.campaign),
        unpriced=experiment.unpriced or None,
    )


def _budget(check: BudgetCheck) -> BudgetItem:
    assert check.limit is not None  # only bounds the budget sets are checked
    return BudgetItem(
        what=check.what,
        key=check.key,
        limit=f"{check.limit:f}",
        figure=_figure(check.figure),
        over=check.failed,
    )
