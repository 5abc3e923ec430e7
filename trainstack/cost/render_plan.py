"""The plan summary's cost: the pools and the stack per hour, a table of the experiments per
run and per campaign, the budget; and the prices it lists under "set before deploying"."""

from __future__ import annotations

from collections import Counter

from trainstack.core.durations import shown_duration
from trainstack.cost.estimate import ExperimentCost, StackCost
from trainstack.cost.money import UNKNOWN, gpu_hours_text, money_text, rate_text
from trainstack.cost.pool_prices import PoolPrice

INCLUDED = "nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees; docs/cost.md"
PRICES_KEY = "trainstack:cost.prices"
NOT_NEEDED = "(for the cost figures only: `pulumi up` does not need it)"
NO_LENGTH = (
    "declare expectedDuration in the experiment file, or record runs (`trainstack results "
    "collect`): the median of theirs counts"
)
EXPERIMENT_HEADERS = (
    "experiment",
    "GPUs",
    "run length",
    "GPU-h per run",
    "per run",
    "runs",
    "GPU-h",
    "cost",
)


def cost_lines(cost: StackCost) -> list[str]:
    """The heading, each pool, and the stack per hour."""
    currency = cost.currency
    lines = [f"cost ({currency or 'no currency set'}; {INCLUDED}):"]
    lines += [f"  {_pool_line(pool, currency)}" for pool in cost.pools]
    unpriced = cost.unpriced_pools
    per_hour = f"{money_text(cost.per_hour, currency)}/h"
    if unpriced:
        per_hour = f"per hour unknown ({len(unpriced)} pool(s) without a price)"
    lines.append(f"  stack {cost.stack}: {cost.gpus} GPUs, {per_hour}")
    return lines


def _pool_line(pool: PoolPrice, currency: str | None) -> str:
    types = ", ".join(pool.instance_types) or "no instance type"
    head = f"pool {pool.pool}: {pool.nodes} node(s) of {types}"
    per_node = pool.per_node
    if per_node is None:
        return f"{head}: price unknown: {pool.unpriced}"
    highest = ", the highest of its types" if pool.varies else ""
    read = "; ".join(
        f"{used.where}, read {used.entry.read_on}" for used in pool.used if used.entry.read_on
    )
    line = f"{head} at {rate_text(per_node, currency)}/h each{highest} ({read})"
    line += f" = {money_text(pool.per_hour, currency)}/h"
    if pool.per_gpu_hour is not None:
        line += f", {rate_text(pool.per_gpu_hour, currency)} per GPU-hour"
    if pool.spot is not None:
        line += f"; spot {rate_text(pool.spot, currency)}/h each"
    return line


def length_text(experiment: ExperimentCost) -> str:
    """``1h30m (expectedDuration)``, ``52m (median of 3 runs)`` or ``unknown``."""
    length = experiment.length
    if length.seconds is None:
        return UNKNOWN
    shown = shown_duration(int(length.seconds.to_integral_value()))
    source = f"median of {length.recorded} runs" if length.recorded else "expectedDuration"
    return f"{shown} ({source})"


def experiment_rows(cost: StackCost) -> list[list[str]]:
    """One row per experiment: GPUs, a run's length, GPU-hours and cost, then its runs on
    the stack with their GPU-hours and cost (columns :data:`EXPERIMENT_HEADERS`)."""
    currency = cost.currency
    return [
        [
            item.experiment,
            str(item.gpus),
            length_text(item),
            gpu_hours_text(item.gpu_hours).removesuffix(" GPU-h"),
            money_text(item.per_run, currency),
            str(item.runs),
            gpu_hours_text(item.campaign_gpu_hours).removesuffix(" GPU-h"),
            money_text(item.campaign, currency),
        ]
        for item in cost.experiments
    ]


def cost_footer(cost: StackCost) -> list[str]:
    """Why figures are unknown (each reason once), the campaign, the budget."""
    currency = cost.currency
    lines = []
    lengths = sum(1 for item in cost.experiments if item.length.seconds is None)
    if lengths:
        lines.append(f"  run length unknown ({lengths} experiment(s)): {NO_LENGTH}")
    reasons = Counter(item.unpriced for item in cost.experiments if item.unpriced)
    lines += [
        f"  per run unknown ({count} experiment(s)): {reason}"
        for reason, count in sorted(reasons.items())
    ]
    if cost.experiments:
        lines.append(
            f"  campaign of {cost.stack}: {money_text(cost.campaign, currency)} (every run of "
            "every GPU experiment it deploys)"
        )
    for check in cost.budget_checks():
        state = "OVER" if check.failed else "within"
        lines.append(
            f"  budget: {check.what} {money_text(check.figure, currency)}, {state} "
            f"trainstack:cost.budget.{check.key} ({money_text(check.limit, currency)})"
        )
    return lines


def price_placeholders(cost: StackCost) -> list[tuple[str, str]]:
    """(key, placeholder) of the cluster kind's prices the stack's pools use that are still
    placeholders: set them in the stack (its own placeholders are listed with the rest)."""
    found = {
        (PRICES_KEY, f"{used.entry.pay_as_you_go} {NOT_NEEDED}")
        for pool in cost.pools
        for used in pool.placeholders
        if not used.where.startswith(PRICES_KEY)
    }
    return sorted(found)
