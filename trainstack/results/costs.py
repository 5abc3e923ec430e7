"""What the runs compared cost, and what resolving each row would (``results compare`` and
``results report``).

Per experiment and side: the runs compared, their GPU-hours (each timed run's GPUs x its
length, :mod:`trainstack.results.durations`) and cost (GPU-hours x the price of a GPU-hour
of the experiment's pool on the stack as it is now, :mod:`trainstack.cost.estimate`).
Per row not yet resolved: the runs still needed per side (the runs-needed of
:mod:`trainstack.results.change` less the runs there are) and what they would take, each
run as long as the median of the side's timed runs, else the experiment's declared
``expectedDuration``. Untimed runs (recorded from saved logs) and unpriced pools leave
figures unknown, said so, never zero.

A stack's prices are loaded when a figure shown first needs them (:class:`SideCost`):
loading them reads and resolves the stack's experiments, which takes longer than the
whole comparison of runs recorded from saved logs, whose cost is unknown at any price.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from trainstack.core.errors import TrainstackError
from trainstack.core.project import Project
from trainstack.cost.money import CONTEXT, SECONDS_PER_HOUR, exact
from trainstack.results.change import MAX_RUNS_NEEDED
from trainstack.results.compare import Row
from trainstack.results.durations import run_seconds
from trainstack.results.store import StoredRun

if TYPE_CHECKING:
    from trainstack.cost.estimate import ExperimentCost

Runs = Mapping[str, Sequence[StoredRun]]
"""One stack's recorded runs, by experiment."""


@dataclass(frozen=True)
class StackPrices:
    """One stack's experiments as the plan prices them (``problem``: why none are)."""

    stack: str
    currency: str | None
    experiments: Mapping[str, ExperimentCost]
    problem: str = ""

    def loaded(self) -> StackPrices:
        """The prices (loaded already)."""
        return self


@dataclass(frozen=True)
class PricesWhenNeeded:
    """:func:`stack_prices` of ``stack``'s ``experiments``, loaded at the first call of
    :meth:`loaded`."""

    project: Project
    stack: str
    experiments: frozenset[str]

    @functools.cached_property
    def _prices(self) -> StackPrices:
        return stack_prices(self.project, self.stack, self.experiments)

    def loaded(self) -> StackPrices:
        """The prices, loaded once."""
        return self._prices


Prices = StackPrices | PricesWhenNeeded
"""A stack's prices, loaded or to be loaded when needed."""


def stack_prices(
    project: Project, stack: str, experiments: Collection[str] | None = None
) -> StackPrices:
    """``stack``'s experiments (``experiments`` of them alone: those compared) priced from
    its stack file as it is now; a stack that does not load is no error here (the
    comparison stands without its cost), but said. Every experiment file and the stack's
    settings are read and checked, but only the jobs priced are resolved: another
    experiment's broken job leaves these priced (it fails the plan, where it is named)."""
    from trainstack.cost.pool_prices import currency_of
    from trainstack.experiments.lookup import load_stack_experiments

    try:
        loaded = load_stack_experiments(project, stack, experiments)
    except TrainstackError as error:
        first = str(error).splitlines()[0]
        return StackPrices(stack, None, {}, f"{stack} not priced: its stack did not load ({first})")
    if not loaded.runs:  # none of them is the stack's: its currency is all there is to say
        return StackPrices(stack, currency_of(loaded.stack.config), {})
    from trainstack.cost.estimate import stack_cost  # with the pod model's checks: a job's GPUs

    cost = stack_cost(stack, loaded.stack.config, loaded.runs, {})
    return StackPrices(stack, cost.currency, {item.experiment: item for item in cost.experiments})


@dataclass(frozen=True)
class SideCost:
    """One side's runs of a row: what they took and cost, what another run would.

    What needs the stack's prices (:attr:`currency`, :attr:`per_gpu_hour`, :attr:`cost` of
    timed runs, :attr:`unpriced`, and :attr:`seconds` of a side without a timed run) loads
    them when first read."""

    stack: str
    experiment: str
    runs: int
    timed: int
    """Runs with a known length (collected from the cluster)."""
    gpus: int
    """GPUs of a run (its latest run's)."""
    gpu_hours: Decimal | None
    """GPU-hours of the timed runs (``None``: none is timed)."""
    timed_seconds: Decimal | None
    """The median length of the timed runs (``None``: none is timed)."""
    prices: Prices = field(repr=False, compare=False)

    @functools.cached_property
    def _priced(self) -> tuple[StackPrices, ExperimentCost | None]:
        prices = self.prices.loaded()
        return prices, prices.experiments.get(self.experiment)

    @property
    def currency(self) -> str | None:
        """The stack's currency (``None``: its stack did not load)."""
        return self._priced[0].currency

    @property
    def per_gpu_hour(self) -> Decimal | None:
        """A GPU-hour of the experiment's pool (``None``: not priced, :attr:`unpriced`)."""
        priced = self._priced[1]
        return None if priced is None else priced.per_gpu_hour

    @property
    def cost(self) -> Decimal | None:
        """What the timed runs cost (``None``: none is timed, or no price)."""
        if self.gpu_hours is None:  # unknown at any price: the prices are not loaded
            return None
        per_gpu_hour = self.per_gpu_hour
        return None if per_gpu_hour is None else exact(self.gpu_hours, per_gpu_hour)

    @property
    def unpriced(self) -> str:
        """Why a GPU-hour of it has no price ("" when it has)."""
        prices, priced = self._priced
        if priced is not None and priced.per_gpu_hour is not None:
            return ""
        if prices.problem:
            return prices.problem
        if priced is None:
            return f"{self.experiment} is not an experiment of {prices.stack} now"
        return priced.unpriced

    @property
    def seconds(self) -> Decimal | None:
        """How long another run would take (``None``: unknown)."""
        return self._length[0]

    @property
    def length_from(self) -> str:
        """Where :attr:`seconds` comes from, or why it is unknown."""
        return self._length[1]

    @property
    def _length(self) -> tuple[Decimal | None, str]:
        if self.timed_seconds is not None:
            return self.timed_seconds, f"median of {self.timed} timed run(s)"
        priced = self._priced[1]
        if priced is not None and priced.length.seconds is not None:
            return priced.length.seconds, priced.length.origin
        return None, "no timed run and no expectedDuration"


def side_cost(prices: Prices, experiment: str, runs: Sequence[StoredRun]) -> SideCost:
    """``runs`` of ``experiment`` on ``prices.stack``, priced."""
    records = [run.record for run in runs]
    timed = [(record.shape.gpus, run_seconds(record)) for record in records]
    lengths = [seconds for _, seconds in timed if seconds is not None]
    gpu_hours = median = None
    if lengths:
        gpu_hours = sum(
            (exact(gpus, s, per=SECONDS_PER_HOUR) for gpus, s in timed if s is not None),
            Decimal(0),
        )
        median = Decimal(str(statistics.median(lengths)))
    latest = max(records, key=lambda record: record.run) if records else None
    return SideCost(
        stack=prices.stack,
        experiment=experiment,
        runs=len(records),
        timed=len(lengths),
        gpus=0 if latest is None else latest.shape.gpus,
        gpu_hours=gpu_hours,
        timed_seconds=median,
        prices=prices,
    )


@dataclass(frozen=True)
class RowCost:
    """One compared row: both sides' runs, and the runs still needed with their cost."""

    experiment: str
    metric: str
    a: SideCost
    b: SideCost
    resolve: float | None
    """The change the runs should resolve (``None``: the row has no runs-needed)."""
    more: tuple[int, int] | None
    """More runs needed on A and on B (``None``: not known; ``(0, 0)``: resolved)."""

    @property
    def currency(self) -> str | None:
        """The one currency of both sides (``None``: unknown, or they differ)."""
        both = {self.a.currency, self.b.currency}
        return self.a.currency if len(both) == 1 else None

    @property
    def more_gpu_hours(self) -> Decimal | None:
        """GPU-hours of the runs still needed (``None``: a length is unknown)."""
        if self.more is None:
            return None
        total = Decimal(0)
        for count, side in zip(self.more, (self.a, self.b), strict=True):
            if count and side.seconds is None:
                return None
            if count:
                hours = exact(count, side.gpus, side.seconds or 0, per=SECONDS_PER_HOUR)
                total = CONTEXT.add(total, hours)
        return total

    @property
    def more_cost(self) -> Decimal | None:
        """What the runs still needed would cost (``None``: unknown, or currencies differ)."""
        if self.more is None or self.currency is None:
            return None
        total = Decimal(0)
        for count, side in zip(self.more, (self.a, self.b), strict=True):
            if not count:
                continue
            if side.seconds is None or side.per_gpu_hour is None:
                return None
            cost = exact(count, side.gpus, side.seconds, side.per_gpu_hour, per=SECONDS_PER_HOUR)
            total = CONTEXT.add(total, cost)
        return total


def row_costs(
    rows: Sequence[Row], prices: tuple[Prices, Prices], runs: tuple[Runs, Runs]
) -> list[RowCost]:
    """Every compared row, its sides' runs (those the row counts) priced."""
    found = []
    for row in rows:
        sides = []
        for side, priced, stack_runs in zip((row.a, row.b), prices, runs, strict=True):
            numbers = set(side.runs)
            kept = [run for run in stack_runs.get(row.experiment, ()) if run.record.run in numbers]
            sides.append(side_cost(priced, row.experiment, kept))
        stats = row.stats
        more = None
        if stats is not None and stats.runs_needed is not None:
            if stats.runs_needed <= MAX_RUNS_NEEDED:
                needed = stats.runs_needed
                more = (max(0, needed - len(row.a.runs)), max(0, needed - len(row.b.runs)))
        found.append(
            RowCost(
                experiment=row.experiment,
                metric=row.metric,
                a=sides[0],
                b=sides[1],
                resolve=None if stats is None else stats.resolve,
                more=more,
            )
        )
    return found


def compared_costs(
    project: Project, rows: Sequence[Row], a: str, b: str, runs: tuple[Runs, Runs]
) -> list[RowCost]:
    """The rows of ``results compare A B`` priced at each stack's prices now (``runs``:
    both stacks' runs, as the rows were computed from)."""
    compared = frozenset(row.experiment for row in rows)
    prices = (PricesWhenNeeded(project, a, compared), PricesWhenNeeded(project, b, compared))
    return row_costs(rows, prices, runs)
