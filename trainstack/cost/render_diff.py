"""What a change costs, as ``trainstack diff`` shows it: text, the pull-request comment's
section (after the data at risk and the changes), and JSON.

Per comparison: GPUs and the pools per hour on both sides, the headline change
(``+8 GPUs: +¥104.72/h``), the campaign of the stack, and a warning for each figure over
the new side's budget; then each experiment whose figures changed (a run's length and
cost, its runs); then the campaigns: each experiment's runs on every stack compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import msgspec

from trainstack.console.markdown import code_span
from trainstack.core.durations import shown_duration
from trainstack.cost.change import (
    Campaign,
    CostChange,
    ExperimentChange,
    campaign_sides,
    campaigns,
)
from trainstack.cost.money import UNKNOWN, change_text, figure, gpu_hours_text, money_text
from trainstack.cost.record import BudgetItem, CostFile, ExperimentItem, amount

Compared = tuple[str, str, CostChange]
"""(before label, after label, the comparison's cost)."""
INCLUDED = "nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees (docs/cost.md)"


def headline(change: CostChange) -> str:
    """``+8 GPUs: +¥104.72/h``, ``no change: ¥211.90/h`` or what is unknown."""
    after = change.after
    if after is None:
        return "stack removed"
    if change.before is None:
        return f"new: {after.gpus} GPUs, {_per_hour(after)}"
    gpus, per_hour = change.gpus or 0, change.per_hour
    if not change.comparable:
        return f"{gpus:+d} GPUs; per hour not compared (different currencies)"
    if per_hour is None:
        return f"{gpus:+d} GPUs; per hour unknown"
    if gpus == 0 and per_hour == 0:
        return f"no change: {_per_hour(after)}"
    return f"{gpus:+d} GPUs: {change_text(per_hour, change.currency)}/h"


def _per_hour(side: CostFile) -> str:
    shown = money_text(amount(side.per_hour), side.currency)
    return "per hour unknown" if shown == UNKNOWN else f"{shown}/h"


def _both(before: str | None, after: str | None, currency: str | None) -> str:
    """``¥1.00 → ¥2.00`` (one figure when equal)."""
    first = money_text(amount(before), currency)
    second = money_text(amount(after), currency)
    return second if first == second else f"{first} → {second}"


def _side_values(change: CostChange, attribute: str) -> tuple[Any, Any]:
    return (
        None if change.before is None else getattr(change.before, attribute),
        None if change.after is None else getattr(change.after, attribute),
    )


def _gpus(change: CostChange) -> str:
    before, after = _side_values(change, "gpus")
    return str(
        after if before in (None, after) else before if after is None else f"{before} → {after}"
    )


def _budget_line(stack: str, item: BudgetItem, currency: str | None) -> str:
    figure_text = money_text(amount(item.figure), currency)
    limit = money_text(Decimal(item.limit), currency)
    state = "unknown, not checked against" if item.figure is None else "over"
    return (
        f"{stack}: {item.what} {figure_text}, {state} trainstack:cost.budget.{item.key} ({limit})"
    )


def _experiment_cells(item: ExperimentChange, currency: str | None) -> list[str]:
    before, after = item.before, item.after
    shown = after or before
    assert shown is not None
    per_run = _both(_of(before, "per_run"), _of(after, "per_run"), currency)
    difference = item.per_run
    if difference is not None and difference != 0:
        per_run += f" ({change_text(difference, currency)})"
    return [
        ("gone: " if after is None else "new: " if before is None else "") + shown.experiment,
        str(shown.gpus)
        if before is None or after is None or before.gpus == after.gpus
        else f"{before.gpus} → {after.gpus}",
        _length(shown),
        per_run,
        str(shown.runs)
        if before is None or after is None or before.runs == after.runs
        else f"{before.runs} → {after.runs}",
        _both(_of(before, "campaign"), _of(after, "campaign"), currency),
    ]


def _of(item: ExperimentItem | None, attribute: str) -> str | None:
    return None if item is None else getattr(item, attribute)


def _length(item: ExperimentItem) -> str:
    """``1h30m (expectedDuration)`` or ``52m (median of 3 runs)``: from the file's numbers
    only (its words are not repeated in a comment)."""
    seconds = amount(item.duration_seconds)
    if seconds is None:
        return UNKNOWN
    source = f"median of {item.recorded_runs} runs" if item.recorded_runs else "expectedDuration"
    return f"{shown_duration(int(seconds.to_integral_value()))} ({source})"


def _campaign_cells(campaign: Campaign) -> list[str]:
    runs = " + ".join(f"{item.runs} × {stack}" for stack, item in campaign.parts)
    cost = money_text(campaign.cost, campaign.currency)
    if campaign.currency is None:
        cost = "not added up (the stacks count in different currencies)"
    return [campaign.experiment, runs, gpu_hours_text(campaign.gpu_hours), cost]


def _stack_cells(change: CostChange) -> list[str]:
    """GPUs, per hour, the headline and the campaign of one comparison."""
    currency = change.currency
    return [
        _gpus(change),
        _both(*_side_values(change, "per_hour"), currency),
        headline(change),
        _both(*_side_values(change, "campaign"), currency),
    ]


def cost_text(compared: Sequence[Compared]) -> list[str]:
    """The cost lines of the text report (empty: no stack recorded a cost)."""
    if not compared:
        return []
    lines = [f"cost ({INCLUDED}):"]
    for before_label, after_label, change in compared:
        gpus, per_hour, summary, campaign = _stack_cells(change)
        lines.append(
            f"  {before_label} -> {after_label}: {gpus} GPUs, per hour {per_hour}: {summary}; "
            f"campaign {campaign}"
        )
        for item in change.experiments:
            cells = _experiment_cells(item, change.currency)
            lines.append(
                f"    {cells[0]}: {cells[1]} GPUs x {cells[2]}, per run {cells[3]}, "
                f"{cells[4]} run(s): {cells[5]}"
            )
        lines += [f"    note: {note}" for note in change.notes]
        if change.after is not None:
            stack = change.after.stack
            lines += [
                f"  OVER BUDGET: {_budget_line(stack, item, change.after.currency)}"
                for item in change.over_budget
            ]
    known, unknown = _campaigns(compared)
    if known or unknown:
        lines.append("campaigns (each experiment's runs on every stack compared):")
        for each in known:
            cells = _campaign_cells(each)
            lines.append(f"  {cells[0]}: {cells[1]}: {cells[2]}, {cells[3]}")
        if unknown:
            lines.append(f"  {UNKNOWN_CAMPAIGNS.format(count=len(unknown))}: {', '.join(unknown)}")
    return lines


UNKNOWN_CAMPAIGNS = "{count} experiment(s) without a known run length (GPU-h and cost unknown)"


def _campaigns(compared: Sequence[Compared]) -> tuple[list[Campaign], list[str]]:
    """The campaigns whose GPU-hours are known, and the names of the others (listed once,
    not as rows of unknowns)."""
    found = campaigns(campaign_sides([change for _, _, change in compared]))
    known = [each for each in found if each.gpu_hours is not None]
    return known, [each.experiment for each in found if each.gpu_hours is None]


def cost_markdown(compared: Sequence[Compared]) -> tuple[str, str, str]:
    """The comment's cost section in three parts, each "" when empty: the stacks with any
    warning over budget (always kept), the experiments whose figures changed, and the
    campaigns (kept while the comment's budget allows)."""
    if not compared:
        return "", "", ""
    over = [
        _budget_line(change.after.stack, item, change.after.currency)
        for _, _, change in compared
        if change.after is not None
        for item in change.over_budget
    ]
    head = [f"### Cost\n\n{INCLUDED[0].upper()}{INCLUDED[1:]}.\n"]
    if over:
        head.append(
            f"> [!WARNING]\n> **Over budget:** {len(over)} figure(s) over a stack's "
            "`trainstack:cost.budget`.\n>\n" + "".join(f"> - {code_span(line)}\n" for line in over)
        )
    head.append("| compared | GPUs | per hour | change | campaign |\n|---|---:|---:|---|---:|")
    for before_label, after_label, change in compared:
        cells = " | ".join(_stack_cells(change))
        head.append(f"| {code_span(before_label)} → {code_span(after_label)} | {cells} |")
    notes = [note for _, _, change in compared for note in change.notes]
    head += [f"- note: {code_span(note)}" for note in notes]
    rows = [
        f"| {code_span(cells[0])} | {code_span(before_label)} → {code_span(after_label)} | "
        + " | ".join(cells[1:])
        + " |"
        for before_label, after_label, change in compared
        for cells in (_experiment_cells(item, change.currency) for item in change.experiments)
    ]
    experiments = ""
    if rows:
        experiments = (
            "**Experiments whose cost changed**\n\n| experiment | compared | GPUs | run length "
            "| per run | runs | campaign |\n|---|---|---:|---|---:|---:|---:|\n"
            + "\n".join(rows)
            + "\n\n"
        )
    known, unknown = _campaigns(compared)
    parts = []
    if known:
        rows_text = "".join(
            f"| {code_span(cells[0])} | {code_span(cells[1])} | {cells[2]} | {cells[3]} |\n"
            for cells in map(_campaign_cells, known)
        )
        parts.append(
            f"| experiment | runs × stack | GPU-h | cost |\n|---|---|---:|---:|\n{rows_text}"
        )
    if unknown:
        names = ", ".join(code_span(name) for name in unknown)
        parts.append(f"{UNKNOWN_CAMPAIGNS.format(count=len(unknown))}: {names}\n")
    campaign_table = ""
    if parts:
        heading = "**Campaigns:** each experiment's runs on every stack compared\n\n"
        campaign_table = heading + "\n".join(parts) + "\n"
    return "\n".join(head) + "\n\n", experiments, campaign_table


def cost_json(change: CostChange | None) -> dict[str, Any] | None:
    """The ``cost`` of one comparison in ``trainstack diff --format json``."""
    if change is None:
        return None
    return {
        "currency": change.currency,
        "before": None if change.before is None else msgspec.to_builtins(change.before),
        "after": None if change.after is None else msgspec.to_builtins(change.after),
        "gpus": change.gpus,
        "perHour": _json_figure(change.per_hour),
        "campaign": _json_figure(change.campaign),
        "headline": headline(change),
        "experiments": [
            {
                "experiment": item.experiment,
                "before": None if item.before is None else msgspec.to_builtins(item.before),
                "after": None if item.after is None else msgspec.to_builtins(item.after),
                "perRun": _json_figure(item.per_run),
            }
            for item in change.experiments
        ],
        "overBudget": [msgspec.to_builtins(item) for item in change.over_budget],
        "notes": list(change.notes),
    }


def campaigns_json(changes: Sequence[CostChange]) -> list[dict[str, Any]]:
    """Every experiment's runs on every stack compared, with their GPU-hours and cost."""
    return [
        {
            "experiment": campaign.experiment,
            "currency": campaign.currency,
            "runs": [{"stack": stack, "runs": item.runs} for stack, item in campaign.parts],
            "gpuHours": _json_figure(campaign.gpu_hours),
            "cost": _json_figure(campaign.cost),
        }
        for campaign in campaigns(campaign_sides(changes))
    ]


def _json_figure(value: Decimal | None) -> str | None:
    return None if value is None else figure(value)
