"""What a change costs: two plans' ``cost.json`` side by side, and the budget of the new one.

Differences are of the figures as the plans wrote them (rounded to hundredths), so that
``before + change = after`` as printed. A side without a figure (no price, no run
length), or two sides in different currencies, have no difference: it is unknown, said
so, never zero. Over budget: a figure of the new side above its stack's bound in
``trainstack:cost.budget``, or unknown while a bound is set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.cost.money import CONTEXT
from trainstack.cost.record import BudgetItem, CostFile, ExperimentItem, amount

NOT_RECORDED = (
    "the plan {side} records no cost (made by a trainstack without cost.json): nothing to "
    "compare its cost with"
)


def difference(before: str | None, after: str | None) -> Decimal | None:
    """``after - before`` of two figures (``None``: either is unknown)."""
    first, second = amount(before), amount(after)
    if first is None or second is None:
        return None
    return CONTEXT.subtract(second, first)


@dataclass(frozen=True)
class ExperimentChange:
    """One experiment's figures on both sides (``None``: not run on that side)."""

    experiment: str
    before: ExperimentItem | None
    after: ExperimentItem | None

    @property
    def per_run(self) -> Decimal | None:
        """The change of a run's cost."""
        if self.before is None or self.after is None:
            return None
        return difference(self.before.per_run, self.after.per_run)

    @property
    def changed(self) -> bool:
        """Anything a reader compares differs: GPUs, length, runs, cost."""
        if self.before is None or self.after is None:
            return True
        keys = ("gpus", "runs", "duration_seconds", "per_run", "campaign")
        return any(getattr(self.before, key) != getattr(self.after, key) for key in keys)


@dataclass(frozen=True)
class CostChange:
    """One comparison's cost: both sides' figures and what changed."""

    before: CostFile | None
    after: CostFile | None
    notes: tuple[str, ...] = ()

    @property
    def currency(self) -> str | None:
        """The currency both sides count in (``None``: unknown, or they differ)."""
        sides = [side.currency for side in (self.before, self.after) if side is not None]
        return sides[0] if sides and len(set(sides)) == 1 else None

    @property
    def comparable(self) -> bool:
        """Both sides recorded, in one currency."""
        return self.before is not None and self.after is not None and self.currency is not None

    @property
    def gpus(self) -> int | None:
        """The change of the pools' GPUs."""
        if self.before is None or self.after is None:
            return None
        return self.after.gpus - self.before.gpus

    @property
    def per_hour(self) -> Decimal | None:
        """The change of the pools' cost per hour."""
        if not self.comparable or self.before is None or self.after is None:
            return None
        return difference(self.before.per_hour, self.after.per_hour)

    @property
    def campaign(self) -> Decimal | None:
        """The change of the stack's campaign (every run it deploys)."""
        if not self.comparable or self.before is None or self.after is None:
            return None
        return difference(self.before.campaign, self.after.campaign)

    @property
    def experiments(self) -> list[ExperimentChange]:
        """Every experiment of either side whose figures differ, by name."""
        before = {
            item.experiment: item for item in (self.before.experiments if self.before else [])
        }
        after = {item.experiment: item for item in (self.after.experiments if self.after else [])}
        found = [
            ExperimentChange(name, before.get(name), after.get(name))
            for name in sorted(set(before) | set(after))
        ]
        return [item for item in found if item.changed]

    @property
    def changed(self) -> bool:
        """Any figure differs between the sides."""
        if self.before is None or self.after is None:
            return False
        pools = (self.before.pools, self.before.per_hour) != (self.after.pools, self.after.per_hour)
        return pools or self.before.currency != self.after.currency or bool(self.experiments)

    @property
    def over_budget(self) -> list[BudgetItem]:
        """The new side's figures over its budget (or unknown while one is set)."""
        return [item for item in (self.after.budget if self.after else []) if item.over]


def cost_change(
    before: CostFile | None,
    after: CostFile | None,
    before_label: str,
    after_label: str,
    exists: tuple[bool, bool] = (True, True),
) -> CostChange | None:
    """The cost of a comparison (``None``: neither side is a stack with a cost, e.g. two data
    stacks). ``exists``: whether each side's stack exists (a new stack has no before)."""
    if before is None and after is None:
        return None
    notes = tuple(
        NOT_RECORDED.format(side=label)
        for side, label, there in (
            (before, before_label, exists[0]),
            (after, after_label, exists[1]),
        )
        if side is None and there
    )
    if before is not None and after is not None and before.currency != after.currency:
        notes += (
            f"{before_label} counts in {before.currency or 'no currency'}, {after_label} in "
            f"{after.currency or 'no currency'}: their figures are not compared",
        )
    return CostChange(before, after, notes)


@dataclass(frozen=True)
class Campaign:
    """One experiment's runs on every stack compared: the runs times both stacks."""

    experiment: str
    parts: tuple[tuple[str, ExperimentItem], ...]
    """(stack, its figures) of each stack that runs it."""
    currency: str | None
    """The stacks' one currency (``None``: they count in different ones)."""

    @property
    def gpu_hours(self) -> Decimal | None:
        """GPU-hours of every run on every stack (``None``: a length is unknown)."""
        return _sum(item.campaign_gpu_hours for _, item in self.parts)

    @property
    def cost(self) -> Decimal | None:
        """What every run on every stack costs (``None``: unknown, or currencies differ)."""
        return None if self.currency is None else _sum(item.campaign for _, item in self.parts)


def _sum(figures: Iterable[str | None]) -> Decimal | None:
    found = [amount(figure) for figure in figures]
    if any(value is None for value in found):
        return None
    return sum((value for value in found if value is not None), Decimal(0))


def campaigns(sides: Sequence[CostFile]) -> list[Campaign]:
    """Per experiment, its runs on each of ``sides`` (one plan per stack), by name."""
    parts: dict[str, list[tuple[str, ExperimentItem]]] = {}
    currencies: dict[str, set[str | None]] = {}
    for side in sorted(sides, key=lambda side: side.stack):
        for item in side.experiments:
            parts.setdefault(item.experiment, []).append((side.stack, item))
            currencies.setdefault(item.experiment, set()).add(side.currency)
    return [
        Campaign(name, tuple(found), _one(currencies[name]))
        for name, found in sorted(parts.items())
    ]


def _one(currencies: set[str | None]) -> str | None:
    return next(iter(currencies)) if len(currencies) == 1 else None


def campaign_sides(changes: Sequence[CostChange]) -> list[CostFile]:
    """The plans a campaign counts: each comparison's new side, and its old side when that
    is another stack (``diff A B``), each stack once."""
    after = {change.after.stack: change.after for change in changes if change.after is not None}
    before = {
        change.before.stack: change.before
        for change in changes
        if change.before is not None and change.before.stack not in after
    }
    return [*after.values(), *before.values()]
