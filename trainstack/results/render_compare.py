"""``results compare`` as text, markdown (a pull-request comment) or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table, number, percent, rounded, text_table
from trainstack.experiments.overrides import overrides_words
from trainstack.results.change import MAX_RUNS_NEEDED
from trainstack.results.compare import Row, Side
from trainstack.results.render_costs import (
    Costs,
    cost_of,
    costs_by_row,
    costs_markdown,
    costs_text,
)
from trainstack.results.render_health import expected_notes
from trainstack.results.render_mermaid import mermaid_bars
from trainstack.results.render_mlperf import mlperf_json
from trainstack.results.render_usage import (
    USAGE_HEADERS,
    USAGE_LEGEND,
    left_out_notes,
    usage_cells,
    usage_json,
)
from trainstack.results.verdict import interval_text, p_text, unchecked_of, verdict


def legend(a: str, b: str) -> str:
    return (
        f"change: how much better {a} is than {b} (ratio of geometric means - 1, inverted for "
        f"lower-is-better metrics: positive means {a} is better), with its 95% confidence "
        "interval and the p-value of Welch's t-test on the log values; n: runs; ± sample "
        "standard deviation"
    )


def _mean_sd(side: Side) -> str:
    summary = side.summary
    if summary is None:
        return "-"
    if summary.stdev is None:
        return number(summary.mean)
    return f"{number(summary.mean)} ± {number(summary.stdev)}"


def compare_rows_cells(rows: Sequence[Row]) -> list[list[str]]:
    """The table's cells, one list per row."""
    return [_cells(row) for row in rows]


def _cells(row: Row) -> list[str]:
    return [
        row.experiment,
        row.metric,
        row.unit,
        str(len(row.a.runs)),
        _mean_sd(row.a),
        str(len(row.b.runs)),
        _mean_sd(row.b),
        percent(row.change) if row.comparable else "not comparable",
        interval_text(row.stats),
        p_text(row.stats.p_value if row.stats else None),
        verdict(row),
    ]


def compare_table_headers(a: str, b: str) -> list[str]:
    return [
        "experiment",
        "metric",
        "unit",
        f"{a} n",
        f"{a} mean ± sd",
        f"{b} n",
        f"{b} mean ± sd",
        "change",
        "change 95% CI",
        "p",
        "verdict",
    ]


_RIGHT = {3, 4, 5, 6, 7, 8, 9}
_USERS = frozenset({0, 1, 2})
"""Columns of text from experiment files (experiment, metric, unit): inline code."""


def notes_of(rows: Sequence[Row]) -> list[str]:
    notes = sorted({row.reason for row in rows if row.reason})
    for row in rows:
        for side in (row.a, row.b):
            if side.excluded:
                notes.append(
                    f"{row.experiment}: {side.excluded} earlier run(s) on {side.stack} left out "
                    "(recorded with other base values or --set values)"
                )
            notes += [
                f"{row.experiment}: run {run} on {side.stack} drifted {percent(drift)} within "
                f"the run ({row.metric}; flagged, still counted)"
                for run, drift in side.drifted
            ]
            notes += expected_notes(row, side)
        if row.comparable and row.a.overrides != row.b.overrides:
            notes.append(
                f"{row.experiment}: run with {overrides_words(row.a.overrides)} on "
                f"{row.a.stack}, {overrides_words(row.b.overrides)} on {row.b.stack}: the same "
                "job values all the same (equal base-values digests)"
            )
        stats = row.stats
        if stats and not stats.too_few and not stats.resolved and stats.runs_needed:
            if stats.runs_needed <= MAX_RUNS_NEEDED:
                notes.append(
                    f"{row.experiment}: to resolve ±{stats.resolve * 100:g}%, set `runs: "
                    f"{{{row.experiment}: {{count: {stats.runs_needed}}}}}` under "
                    "trainstack:experiments in both stack files, then `pulumi up` and collect"
                )
    return list(dict.fromkeys(notes + left_out_notes(rows)))


def compare_text(rows: Sequence[Row], a: str, b: str, costs: Costs = ()) -> str:
    """Aligned plain text; last, what the runs cost (``costs``)."""
    out = [f"{a} vs {b}: {legend(a, b)}\n\n"]
    out.append(
        text_table(
            compare_table_headers(a, b),
            [[printable(cell, None) for cell in _cells(row)] for row in rows],
            _RIGHT,
        )
    )
    notes = notes_of(rows)
    if notes:
        out.append("\nnot comparable, left out or flagged:\n")
        out += [f"  - {printable(note, None)}\n" for note in notes]
    unchecked = unchecked_of(rows)
    if unchecked:
        out.append("\nenvironments or data not compared:\n")
        out += [f"  - {note}\n" for note in unchecked]
    out += [f"\n{summary}\n" for summary in sorted({row.health for row in rows} - {""})]
    usage = usage_cells(rows)
    if usage:
        out.append(f"\n{USAGE_LEGEND}:\n\n")
        cells = [[printable(cell, None) for cell in row] for row in usage]
        out.append(text_table(USAGE_HEADERS, cells, set(range(2, len(USAGE_HEADERS)))))
    out.append(costs_text(costs))
    return "".join(out)


def compare_markdown(rows: Sequence[Row], a: str, b: str, costs: Costs = ()) -> str:
    """Tables, notes, a mermaid bar chart per metric, the cost: a pull-request comment."""
    out = [f"### Results: {code_span(a)} vs {code_span(b)}\n\n", f"{legend(a, b)}.\n\n"]
    table = markdown_table(
        compare_table_headers(a, b), [_cells(row) for row in rows], _RIGHT, _USERS
    )
    out.append(table)
    notes = notes_of(rows)
    if notes:
        out.append("\n**Not comparable, left out or flagged**\n\n")
        out += [f"- {code_span(note)}\n" for note in notes]
    unchecked = unchecked_of(rows)
    if unchecked:
        out.append("\n**Environments or data not compared**\n\n")
        out += [f"- {code_span(note)}\n" for note in unchecked]
    out += [f"\n**Health**: {code_span(s)}\n" for s in sorted({row.health for row in rows} - {""})]
    usage = usage_cells(rows)
    if usage:
        out.append(f"\n**GPU telemetry and goodput**: {USAGE_LEGEND}.\n\n")
        right = set(range(2, len(USAGE_HEADERS)))
        out.append(markdown_table(USAGE_HEADERS, usage, right, frozenset({0, 1})))
    for metric in sorted({row.metric for row in rows}):
        chart = mermaid_bars([r for r in rows if r.metric == metric and r.comparable], a, b)
        if chart:
            out.append("\n" + chart)
    out.append(costs_markdown(costs))
    return "".join(out)


def _side_json(side: Side) -> dict[str, Any]:
    summary = side.summary
    return {
        "stack": side.stack,
        "n": len(side.runs),
        "runs": len(side.runs),
        "runNumbers": list(side.runs),
        "mean": rounded(summary.mean) if summary else None,
        "stdev": rounded(summary.stdev) if summary else None,
        "ci95": [rounded(x) for x in summary.interval] if summary and summary.interval else None,
        "baseValuesDigest": side.digest,
        "excludedRuns": side.excluded,
        "overrides": dict(side.overrides),
        "scope": list(side.scopes),
        "drifted": [{"run": run, "drift": rounded(drift)} for run, drift in side.drifted],
        "expected": None
        if side.expected is None
        else {
            "low": rounded(side.expected.low),
            "high": rounded(side.expected.high),
            "basis": side.expected.basis,
        },
        "suspect": [{"run": run, "value": rounded(value)} for run, value in side.suspect],
        "leftOut": [{"run": run, "why": why} for run, why in side.left_out],
        "usage": usage_json(side),
    }


def _stats_json(row: Row) -> dict[str, Any]:
    stats = row.stats
    if stats is None:
        return {"changeInterval": None, "pValue": None, "test": None, "runsNeeded": None}
    return {
        "changeInterval": [rounded(x) for x in stats.interval] if stats.interval else None,
        "pValue": None if stats.p_value is None else float(f"{stats.p_value:.4g}"),
        "test": stats.test,
        "runsNeeded": stats.runs_needed,
        "resolve": rounded(stats.resolve),
        "resolved": stats.resolved,
    }


def compare_json(rows: Sequence[Row], costs: Costs = ()) -> str:
    """A list of objects, one per experiment and metric (keys sorted, final newline)."""
    by_row = costs_by_row(costs)
    items = [
        {
            "experiment": row.experiment,
            "metric": row.metric,
            "unit": row.unit,
            "higherIsBetter": row.higher_is_better,
            "a": _side_json(row.a),
            "b": _side_json(row.b),
            "change": rounded(row.change),
            **_stats_json(row),
            "verdict": verdict(row),
            "comparable": row.comparable,
            "reason": row.reason or None,
            "environment": {
                "status": row.environment.status,
                "differences": list(row.environment.differences),
            },
            "datasets": {"status": row.datasets.status},
            **mlperf_json(row),
            "cost": cost_of(by_row, row),
        }
        for row in rows
    ]
    return json.dumps(items, indent=2, sort_keys=True) + "\n"
