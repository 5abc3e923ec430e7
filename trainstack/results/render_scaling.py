"""``results scaling`` as text, markdown or JSON."""

from __future__ import annotations

import json
from typing import Any

from trainstack.console.markdown import chart_label, code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table, number, rounded, text_table
from trainstack.results.render_mermaid import axis_top
from trainstack.results.scaling import SCALE_OUT, SCALE_UP, Point, Scaling

_RIGHT = {2, 3, 4, 5, 6, 7}
_USERS = frozenset({0, 1})
"""Columns of text from experiment files (series, experiment): inline code."""


def _headers(scaling: Scaling, markdown: bool = False) -> list[str]:
    unit = f" ({scaling.unit})" if scaling.unit else ""
    metric = f"{scaling.metric}{unit}"
    return [
        "series",
        "experiment",
        "GPUs",
        "workers x GPUs",
        "runs",
        code_span(metric) if markdown else printable(metric, None),
        "speed-up",
        "efficiency",
    ]


def _rows(scaling: Scaling) -> list[list[str]]:
    return [
        [
            " + ".join(point.series),
            point.experiment,
            str(point.gpus),
            f"{point.workers} x {point.gpus_per_worker}",
            str(point.runs),
            number(point.mean)
            if point.stdev is None
            else f"{number(point.mean)} ± {number(point.stdev)}",
            f"{point.speedup:.2f}x",
            f"{point.efficiency * 100:.0f}%",
        ]
        for point in scaling.points
    ]


def _legend(scaling: Scaling) -> str:
    kind = "throughput" if scaling.higher_is_better else "time"
    return (
        f"{scaling.matrix} on {scaling.stack}: {scaling.metric} ({kind}) against total GPUs; "
        f"speed-up and efficiency (speed-up / linear speed-up) relative to {scaling.base}"
    )


def _cell(point: Point) -> str:
    return f"{number(point.mean)} ({point.speedup:.2f}x, {point.efficiency * 100:.0f}%)"


def _side_by_side(scaling: Scaling) -> list[list[str]]:
    """Scale-up against scale-out at each GPU count both reach."""
    up = {point.gpus: point for point in scaling.series(SCALE_UP)}
    out = {point.gpus: point for point in scaling.series(SCALE_OUT)}
    return [[str(gpus), _cell(up[gpus]), _cell(out[gpus])] for gpus in sorted(set(up) & set(out))]


def _missing(scaling: Scaling) -> str:
    if not scaling.missing:
        return ""
    return f"no results for {scaling.metric}: {', '.join(scaling.missing)}\n"


def scaling_text(scaling: Scaling) -> str:
    """Aligned plain text: every point, then scale-up and scale-out side by side."""
    pairs = _side_by_side(scaling)
    rows = [[printable(cell, None) for cell in row] for row in _rows(scaling)]
    out = [printable(_legend(scaling), None) + "\n\n", text_table(_headers(scaling), rows, _RIGHT)]
    if pairs:
        out.append("\n" + text_table(["GPUs", SCALE_UP, SCALE_OUT], pairs, {0, 1, 2}))
    out.append(_missing(scaling))
    return "".join(out)


def scaling_markdown(scaling: Scaling) -> str:
    """Tables and a mermaid line chart of speed-up per series (scale-up, scale-out)."""
    title = f"### Scaling: {code_span(scaling.matrix)} on {code_span(scaling.stack)}\n\n"
    out = [title, code_span(_legend(scaling)) + ".\n\n"]
    out.append(markdown_table(_headers(scaling, True), _rows(scaling), _RIGHT, _USERS))
    pairs = _side_by_side(scaling)
    if pairs:
        out.append("\n" + markdown_table(["GPUs", SCALE_UP, SCALE_OUT], pairs, {0, 1, 2}))
        gpus = [row[0] for row in pairs]
        up = {p.gpus: p for p in scaling.series(SCALE_UP)}
        scale_out = {p.gpus: p for p in scaling.series(SCALE_OUT)}
        speedups = [p.speedup for p in (*up.values(), *scale_out.values())]
        out.append(
            "\n```mermaid\nxychart-beta\n"
            f'    title "{chart_label(scaling.matrix)}: speed-up, scale-up (first line) and '
            'scale-out"\n'
            f'    x-axis "GPUs" [{", ".join(gpus)}]\n'
            f'    y-axis "speed-up (x)" 0 --> {axis_top(max(speedups)):g}\n'
            f"    line [{', '.join(f'{up[int(g)].speedup:.2f}' for g in gpus)}]\n"
            f"    line [{', '.join(f'{scale_out[int(g)].speedup:.2f}' for g in gpus)}]\n"
            "```\n"
        )
    missing = _missing(scaling)
    if missing:
        out.append(f"\n{code_span(missing.rstrip())}\n")
    return "".join(out)


def scaling_json(scaling: Scaling) -> str:
    """One object: the matrix, the metric and every point."""
    document: dict[str, Any] = {
        "stack": scaling.stack,
        "matrix": scaling.matrix,
        "metric": scaling.metric,
        "unit": scaling.unit,
        "higherIsBetter": scaling.higher_is_better,
        "base": scaling.base,
        "missing": list(scaling.missing),
        "points": [
            {
                "experiment": p.experiment,
                "series": list(p.series),
                "gpus": p.gpus,
                "workers": p.workers,
                "gpusPerWorker": p.gpus_per_worker,
                "runs": p.runs,
                "mean": rounded(p.mean),
                "stdev": rounded(p.stdev),
                "speedup": rounded(p.speedup),
                "efficiency": rounded(p.efficiency),
            }
            for p in scaling.points
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True) + "\n"
