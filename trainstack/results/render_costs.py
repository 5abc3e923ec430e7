"""The cost of the runs compared, and of the runs still needed, as ``results compare`` and
``results report`` show it: lines, table cells and JSON."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table
from trainstack.cost.money import UNKNOWN, figure, gpu_hours_text, money_text
from trainstack.results.compare import Row
from trainstack.results.costs import RowCost, SideCost
from trainstack.results.report_page import table

Costs = Sequence[RowCost]
"""Every compared row's cost (:func:`trainstack.results.costs.compared_costs`)."""

INCLUDED = "nodes only, pay-as-you-go: no disks, NAS, traffic or cluster fees; docs/cost.md"
COST_HEADERS = ["experiment", "stack", "runs", "timed", "GPU-h", "cost"]


def _first_per_experiment(costs: Sequence[RowCost]) -> list[RowCost]:
    seen: dict[str, RowCost] = {}
    for cost in costs:
        seen.setdefault(cost.experiment, cost)
    return list(seen.values())


def side_text(side: SideCost) -> str:
    """``aiacc 3 run(s): 48.00 GPU-h, ¥361.50`` with what is unknown and why."""
    head = f"{side.stack} {side.runs} run(s)"
    if side.timed == 0:
        return f"{head}, none timed (recorded from saved logs): GPU-h and cost unknown"
    if side.timed < side.runs:
        head += f", {side.timed} timed (the others not counted)"
    cost = money_text(side.cost, side.currency)
    if side.cost is None:
        cost = f"cost unknown ({side.unpriced})"
    return f"{head}: {gpu_hours_text(side.gpu_hours)}, {cost}"


def side_cells(side: SideCost) -> list[str]:
    """The table's cells of one side: stack, runs, timed, GPU-h, cost (figures and fixed
    words only: why a figure is unknown is a note, :func:`cost_notes`)."""
    # An unknown cost reads no currency: untimed runs load no prices (results.costs).
    cost = UNKNOWN if side.cost is None else money_text(side.cost, side.currency)
    return [side.stack, str(side.runs), str(side.timed), gpu_hours_text(side.gpu_hours), cost]


def more_text(cost: RowCost) -> str | None:
    """``±2% needs 4 more runs per side ≈ 128.00 GPU-h ≈ ¥964.00`` (``None``: resolved, or
    nothing known to say)."""
    if cost.more is None or cost.resolve is None or cost.more == (0, 0):
        return None
    more_a, more_b = cost.more
    resolve = f"±{cost.resolve * 100:g}%"
    runs = (
        f"{more_a} more runs per side"
        if more_a == more_b
        else f"{more_a} more runs on {cost.a.stack} and {more_b} on {cost.b.stack}"
    )
    hours = cost.more_gpu_hours
    if hours is None:
        unknown = next(side for side in (cost.a, cost.b) if side.seconds is None)
        return f"{resolve} needs {runs}: GPU-h unknown ({unknown.stack}: {unknown.length_from})"
    price = money_text(cost.more_cost, cost.currency)
    if cost.more_cost is None:
        why = next((side.unpriced for side in (cost.a, cost.b) if side.unpriced), "")
        price = f", cost unknown ({why or 'the stacks count in different currencies'})"
    else:
        price = f" ≈ {price}"
    return f"{resolve} needs {runs} ≈ {gpu_hours_text(hours)}{price}"


def costs_text(costs: Costs) -> str:
    """The section ``results compare``'s text ends with ("": nothing compared)."""
    lines = cost_lines(costs)
    return "".join(["\n", *(f"{printable(line, None)}\n" for line in lines)]) if lines else ""


def costs_markdown(costs: Costs) -> str:
    """The section ``results compare --format markdown`` ends with ("": nothing compared)."""
    if not costs:
        return ""
    table = markdown_table(COST_HEADERS, costs_rows(costs), {2, 3, 4, 5}, frozenset({0, 1}))
    notes = "".join(f"- {code_span(line)}\n" for line in cost_notes(costs))
    return f"\n**Cost of the runs compared** ({INCLUDED})\n\n{table}{notes}"


def costs_html(costs: Costs) -> str:
    """The report's cost section, its heading included ("": nothing compared)."""
    if not costs:
        return ""
    cells = [[html.escape(cell) for cell in row] for row in costs_rows(costs)]
    notes = "".join(f"<li>{html.escape(line)}</li>" for line in cost_notes(costs))
    return (
        f'<h2>Cost</h2>\n<p class="legend">{html.escape(INCLUDED)}</p>\n'
        + table([html.escape(h) for h in COST_HEADERS], cells)
        + (f"<ul>{notes}</ul>\n" if notes else "")
    )


def costs_by_row(costs: Costs) -> dict[tuple[str, str], RowCost]:
    """Each row's cost by experiment and metric (the first given of each), for
    :func:`cost_of`: looked up once per row, not searched for (rows x costs)."""
    found: dict[tuple[str, str], RowCost] = {}
    for cost in costs:
        found.setdefault((cost.experiment, cost.metric), cost)
    return found


def cost_of(costs: Mapping[tuple[str, str], RowCost], row: Row) -> dict[str, Any] | None:
    """``row``'s ``cost`` in ``results compare --format json`` (``null``: not priced);
    ``costs``: :func:`costs_by_row`."""
    return cost_json(costs.get((row.experiment, row.metric)))


def cost_lines(costs: Costs) -> list[str]:
    """The lines of ``results compare``'s text cost section (empty: nothing compared)."""
    if not costs:
        return []
    lines = [f"cost of the runs compared ({INCLUDED}):"]
    for cost in _first_per_experiment(costs):
        lines.append(f"  {cost.experiment}: {side_text(cost.a)}; {side_text(cost.b)}")
    for cost in costs:
        more = more_text(cost)
        if more:
            lines.append(f"  {cost.experiment} {cost.metric}: {more}")
    return lines


def costs_rows(costs: Sequence[RowCost]) -> list[list[str]]:
    """One row per experiment and side (columns :data:`COST_HEADERS`)."""
    return [
        [cost.experiment, *side_cells(side)]
        for cost in _first_per_experiment(costs)
        for side in (cost.a, cost.b)
    ]


def cost_notes(costs: Sequence[RowCost]) -> list[str]:
    """Why a side's runs have no cost (each once), then ``imagenet-tensorflow
    images_per_sec: ±2% needs ...`` for each row not resolved."""
    unpriced = {
        f"{side.stack}: cost unknown ({side.unpriced})"
        for cost in _first_per_experiment(costs)
        for side in (cost.a, cost.b)
        if side.cost is None and side.timed
    }
    return sorted(unpriced) + [
        f"{cost.experiment} {cost.metric}: {more}"
        for cost in costs
        if (more := more_text(cost)) is not None
    ]


def _figure(value: Decimal | None) -> str | None:
    return None if value is None else figure(value)


def _side_json(side: SideCost) -> dict[str, Any]:
    return {
        "stack": side.stack,
        "runs": side.runs,
        "timedRuns": side.timed,
        "gpusPerRun": side.gpus,
        "gpuHours": _figure(side.gpu_hours),
        "cost": _figure(side.cost),
        "currency": side.currency,
        "runSeconds": None if side.seconds is None else f"{side.seconds:f}",
        "runLengthFrom": side.length_from,
        "unpriced": side.unpriced or None,
    }


def cost_json(cost: RowCost | None) -> dict[str, Any] | None:
    """A row's ``cost`` in ``results compare --format json``."""
    if cost is None:
        return None
    return {
        "a": _side_json(cost.a),
        "b": _side_json(cost.b),
        "currency": cost.currency,
        "resolve": cost.resolve,
        "moreRuns": None if cost.more is None else list(cost.more),
        "moreGpuHours": _figure(cost.more_gpu_hours),
        "moreCost": _figure(cost.more_cost),
    }


__all__ = ["COST_HEADERS", "UNKNOWN", "cost_json", "cost_notes", "costs_rows", "costs_text"]
