"""``results compare`` as text, markdown (a pull-request comment) or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from trainstack.console.markdown import chart_label, code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table, number, percent, text_table
from trainstack.results.compare import Row, Side
from trainstack.results.stats import MIN_RUNS_FOR_INTERVAL

MERMAID_MAX_EXPERIMENTS = 10
"""Bar charts in the markdown only up to this many experiments per metric (readability)."""


def _legend(a: str, b: str) -> str:
    return (
        f"change = mean({a}) / mean({b}) - 1 (lower-is-better metrics: mean({b}) / mean({a}) - 1), "
        f"positive: {a} is better; ± sample standard deviation; 95% CI: Student's t, from "
        f"{MIN_RUNS_FOR_INTERVAL} runs"
    )


def _mean_sd(side: Side) -> str:
    summary = side.summary
    if summary is None:
        return "-"
    if summary.stdev is None:
        return number(summary.mean)
    return f"{number(summary.mean)} ± {number(summary.stdev)}"


def _interval(side: Side) -> str:
    interval = side.summary.interval if side.summary else None
    return "-" if interval is None else f"{number(interval[0])} .. {number(interval[1])}"


def _cells(row: Row) -> list[str]:
    change = percent(row.change) if row.comparable else "not comparable"
    return [
        row.experiment,
        row.metric,
        row.unit,
        str(len(row.a.runs)),
        _mean_sd(row.a),
        _interval(row.a),
        str(len(row.b.runs)),
        _mean_sd(row.b),
        _interval(row.b),
        change,
    ]


def _headers(a: str, b: str) -> list[str]:
    return [
        "experiment",
        "metric",
        "unit",
        f"{a} runs",
        f"{a} mean ± sd",
        f"{a} 95% CI",
        f"{b} runs",
        f"{b} mean ± sd",
        f"{b} 95% CI",
        "change",
    ]


_RIGHT = {3, 4, 5, 6, 7, 8, 9}
_USERS = frozenset({0, 1, 2})
"""Columns of text from experiment files (experiment, metric, unit): inline code."""


def _notes(rows: Sequence[Row]) -> list[str]:
    notes = sorted({row.reason for row in rows if row.reason})
    for row in rows:
        for side in (row.a, row.b):
            if side.excluded:
                notes.append(
                    f"{row.experiment}: {side.excluded} earlier run(s) on {side.stack} left out "
                    "(recorded with other base values)"
                )
    return list(dict.fromkeys(notes))


def _unchecked(rows: Sequence[Row]) -> list[str]:
    """Why the environments of some pairs were not compared (runs from saved logs)."""
    found = {row.environment.reason for row in rows if row.environment.status == "unknown"}
    return sorted(found - {""})


def compare_text(rows: Sequence[Row], a: str, b: str) -> str:
    """Aligned plain text."""
    out = [f"{a} vs {b}: {_legend(a, b)}\n\n"]
    cells = [[printable(cell, None) for cell in _cells(row)] for row in rows]
    out.append(text_table(_headers(a, b), cells, _RIGHT))
    notes = _notes(rows)
    if notes:
        out.append("\nnot comparable or left out:\n")
        out += [f"  - {printable(note, None)}\n" for note in notes]
    unchecked = _unchecked(rows)
    if unchecked:
        out.append("\nenvironments not compared:\n")
        out += [f"  - {note}\n" for note in unchecked]
    return "".join(out)


def compare_markdown(rows: Sequence[Row], a: str, b: str) -> str:
    """Tables, notes and a mermaid bar chart per metric: usable as a pull-request comment."""
    out = [f"### Results: {code_span(a)} vs {code_span(b)}\n\n", f"{_legend(a, b)}.\n\n"]
    table = markdown_table(_headers(a, b), [_cells(row) for row in rows], _RIGHT, _USERS)
    out.append(table)
    notes = _notes(rows)
    if notes:
        out.append("\n**Not comparable or left out**\n\n")
        out += [f"- {code_span(note)}\n" for note in notes]
    unchecked = _unchecked(rows)
    if unchecked:
        out.append("\n**Environments not compared**\n\n")
        out += [f"- {code_span(note)}\n" for note in unchecked]
    for metric in sorted({row.metric for row in rows}):
        chart = _mermaid([r for r in rows if r.metric == metric and r.comparable], a, b)
        if chart:
            out.append("\n" + chart)
    return "".join(out)


def _mermaid(rows: Sequence[Row], a: str, b: str) -> str:
    if not rows or len(rows) > MERMAID_MAX_EXPERIMENTS:
        return ""
    labels: list[str] = []
    values: list[str] = []
    for row in rows:
        for side in (row.a, row.b):
            assert side.summary is not None  # comparable rows have values on both sides
            labels.append(f'"{chart_label(f"{row.experiment} {side.stack}")}"')
            values.append(f"{side.summary.mean:.2f}")
    metric, unit = rows[0].metric, rows[0].unit
    return (
        "```mermaid\nxychart-beta\n"
        f'    title "{chart_label(f"{metric}: {a} vs {b}")}"\n'
        f"    x-axis [{', '.join(labels)}]\n"
        f'    y-axis "{chart_label(unit or metric)}"\n'
        f"    bar [{', '.join(values)}]\n"
        "```\n"
    )


def _rounded(value: float | None) -> float | None:
    """Six decimals: enough for any metric, and no float noise (0.1200000000000001)."""
    return None if value is None else round(value, 6)


def _side_json(side: Side) -> dict[str, Any]:
    summary = side.summary
    return {
        "stack": side.stack,
        "runs": len(side.runs),
        "runNumbers": list(side.runs),
        "mean": _rounded(summary.mean) if summary else None,
        "stdev": _rounded(summary.stdev) if summary else None,
        "ci95": [_rounded(x) for x in summary.interval] if summary and summary.interval else None,
        "baseValuesDigest": side.digest,
        "excludedRuns": side.excluded,
    }


def compare_json(rows: Sequence[Row]) -> str:
    """A list of objects, one per experiment and metric (keys sorted, final newline)."""
    items = [
        {
            "experiment": row.experiment,
            "metric": row.metric,
            "unit": row.unit,
            "higherIsBetter": row.higher_is_better,
            "a": _side_json(row.a),
            "b": _side_json(row.b),
            "change": _rounded(row.change),
            "comparable": row.comparable,
            "reason": row.reason or None,
            "environment": {
                "status": row.environment.status,
                "differences": list(row.environment.differences),
            },
        }
        for row in rows
    ]
    return json.dumps(items, indent=2, sort_keys=True) + "\n"
