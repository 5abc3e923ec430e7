"""A stack's cost as its plan shows it: its pools per hour, each experiment per run and per
campaign (the runs the stack deploys).

- A pool costs its nodes at its size times a node's price per hour, idle or not (the
  cloud bills a running node whether pods use it or not).
- A run holds its GPUs for its length: its GPU-hours are GPUs x hours, and its cost is
  its share of the GPU nodes, GPU-hours x the pool's price per GPU-hour (a node's price
  over its GPUs). What else it holds (a launcher on the CPU pool, a node's idle GPUs) is
  in the stack's cost per hour, not in a run's.
- A run's length is the median of the experiment's recorded runs (those of its current
  base values, with their timing) when there are any, else its declared
  ``expectedDuration``, else unknown; which one is always said.
- Unknown stays unknown: a pool without a price, a run without a length make the figures
  built on them unknown, never zero (a sum over several says how many it lacks).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.pods import total_gpus
from trainstack.config.prices import Budget
from trainstack.config.stack import StackConfig
from trainstack.core.durations import seconds_of
from trainstack.cost.money import SECONDS_PER_HOUR, exact, total
from trainstack.cost.pool_prices import PoolPrice, currency_of, pool_prices
from trainstack.experiments.resolve import Experiment


@dataclass(frozen=True)
class RunLength:
    """How long one run takes, and where that comes from."""

    seconds: Decimal | None
    origin: str
    """``median of 3 recorded run(s)``, ``expectedDuration 1h30m``, or why it is unknown."""
    recorded: int = 0
    """Recorded runs it is the median of (0: declared or unknown)."""


def run_length(declared: str | None, recorded: Sequence[Decimal]) -> RunLength:
    """The median of ``recorded`` (seconds) when there are any, else ``declared``."""
    if recorded:
        median = Decimal(str(statistics.median(recorded)))
        return RunLength(median, f"median of {len(recorded)} recorded run(s)", len(recorded))
    seconds = None if declared is None else seconds_of(declared)
    if seconds is not None:
        return RunLength(Decimal(seconds), f"expectedDuration {declared}")
    return RunLength(None, "no expectedDuration and no timed run recorded")


@dataclass(frozen=True)
class ExperimentCost:
    """One experiment on one stack: its GPUs, a run's length and cost, its runs."""

    experiment: str
    pool: str | None
    gpus: int
    runs: int
    """Runs the stack deploys (``trainstack:experiments.runs``)."""
    length: RunLength
    per_gpu_hour: Decimal | None
    unpriced: str = ""
    """Why a GPU-hour of it has no price ("" when it has)."""

    @property
    def gpu_hours(self) -> Decimal | None:
        """GPU-hours of one run (``None``: its length is unknown)."""
        if self.length.seconds is None:
            return None
        return exact(self.gpus, self.length.seconds, per=SECONDS_PER_HOUR)

    @property
    def per_run(self) -> Decimal | None:
        """What one run costs (``None``: its length or its pool's price is unknown)."""
        if self.length.seconds is None or self.per_gpu_hour is None:
            return None
        return exact(self.per_gpu_hour, self.gpus, self.length.seconds, per=SECONDS_PER_HOUR)

    @property
    def campaign_gpu_hours(self) -> Decimal | None:
        """GPU-hours of all its runs on the stack."""
        hours = self.gpu_hours
        return None if hours is None else exact(hours, self.runs)

    @property
    def campaign(self) -> Decimal | None:
        """What all its runs on the stack cost."""
        per_run = self.per_run
        return None if per_run is None else exact(per_run, self.runs)


@dataclass(frozen=True)
class StackCost:
    """A stack's pools and experiments, priced in its currency."""

    stack: str
    currency: str | None
    pools: tuple[PoolPrice, ...]
    experiments: tuple[ExperimentCost, ...]
    budget: Budget | None

    @property
    def gpus(self) -> int:
        """GPUs of the pools at their size."""
        return sum(pool.nodes * pool.gpus_per_node for pool in self.pools)

    @property
    def unpriced_pools(self) -> list[PoolPrice]:
        """Pools without a price."""
        return [pool for pool in self.pools if pool.per_hour is None]

    @property
    def per_hour(self) -> Decimal | None:
        """Every pool at its size for an hour (``None``: a pool has no price)."""
        if self.unpriced_pools or self.currency is None:
            return None
        return total([pool.per_hour for pool in self.pools if pool.per_hour is not None])

    @property
    def campaign(self) -> Decimal | None:
        """Every GPU experiment's runs on the stack (``None``: one of them is unknown)."""
        figures = [experiment.campaign for experiment in self.experiments if experiment.gpus]
        if any(figure is None for figure in figures) or self.currency is None:
            return None
        return total([figure for figure in figures if figure is not None])

    def budget_checks(self) -> list[BudgetCheck]:
        """Each figure the stack's budget bounds, with that bound."""
        budget = self.budget
        if budget is None:
            return []
        checks = [
            BudgetCheck("its pools per hour", "perHour", self.per_hour, budget.per_hour),
            BudgetCheck("its campaign", "perCampaign", self.campaign, budget.per_campaign),
        ]
        return [check for check in checks if check.limit is not None]


@dataclass(frozen=True)
class BudgetCheck:
    """One figure of a stack against its bound in ``trainstack:cost.budget``."""

    what: str
    key: str
    """``perHour`` or ``perCampaign``."""
    figure: Decimal | None
    limit: Decimal | None

    @property
    def failed(self) -> bool:
        """Over the bound, or unknown (and so not checked)."""
        return self.limit is not None and (self.figure is None or self.figure > self.limit)


def stack_cost(
    stack: str,
    config: StackConfig,
    experiments: Sequence[Experiment],
    recorded: Mapping[str, Sequence[Decimal]],
) -> StackCost:
    """``stack``'s cost: its pools priced, and each experiment (by its matrix point's name)
    with its runs and length; ``recorded``: the seconds of its recorded runs, by experiment."""
    pools = pool_prices(config)
    by_name = {pool.pool: pool for pool in pools}
    runs: dict[str, list[Experiment]] = {}
    for experiment in experiments:
        runs.setdefault(experiment.point_name, []).append(experiment)
    costs = []
    for name, deployed in sorted(runs.items()):
        first = deployed[0]
        pool = by_name.get(first.pool) if first.pool else None
        gpus = total_gpus(first.job)
        unpriced = ""
        if not gpus:
            unpriced = "no GPUs: its pods run on CPU nodes, in the stack's cost per hour"
        elif pool is None or pool.per_gpu_hour is None:
            unpriced = pool.unpriced if pool is not None else "the stack has no GPU pool"
        costs.append(
            ExperimentCost(
                experiment=name,
                pool=first.pool,
                gpus=gpus,
                runs=len(deployed),
                length=run_length(first.expected_duration, recorded.get(name, ())),
                per_gpu_hour=None if pool is None or not gpus else pool.per_gpu_hour,
                unpriced=unpriced,
            )
        )
    return StackCost(stack, currency_of(config), tuple(pools), tuple(costs), config.cost.budget)
