"""Mermaid charts of the markdown outputs (a pull-request comment draws them): axes from 0
to a round top, labels that cannot break out of their string, bars per stack.

``results compare`` draws a bar chart per metric (:func:`mermaid_bars`), ``results
scaling`` a line chart of speed-up whose axis comes from :func:`axis_top`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trainstack.results.compare import Row

MERMAID_MAX_EXPERIMENTS = 10
"""Bar charts in the markdown only up to this many experiments per metric (readability)."""


_MERMAID_SAFE = re.compile(r"[^A-Za-z0-9 _./%+,-]")


def _quoted(text: str) -> str:
    """A mermaid string of letters, digits and ``_./%+,-`` only: nothing in it can end the
    string, the line or the block, or be read as markup or a link (others become ``_``)."""
    return '"' + _MERMAID_SAFE.sub("_", text) + '"'


def axis_top(largest: float) -> float:
    """A round top for a y axis from 0 (1, 2 or 5 times a power of ten) above ``largest``."""
    import math

    if largest <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(largest * 1.05))
    return next(step * power for step in (1, 2, 5, 10) if step * power >= largest * 1.05)


def mermaid_bars(rows: Sequence[Row], a: str, b: str) -> str:
    """Bars from 0, one series per stack, side by side (each series 0 in the other's slots)."""
    if not rows or len(rows) > MERMAID_MAX_EXPERIMENTS:
        return ""
    labels: list[str] = []
    series: dict[str, list[str]] = {a: [], b: []}
    largest = 0.0
    for row in rows:
        for side in (row.a, row.b):
            assert side.summary is not None  # comparable rows have values on both sides
            labels.append(_quoted(f"{row.experiment} {side.stack}"))
            largest = max(largest, side.summary.mean)
            for stack, values in series.items():
                values.append(f"{side.summary.mean:.2f}" if stack == side.stack else "0")
    metric, unit = rows[0].metric, rows[0].unit
    top = axis_top(largest)
    return (
        "```mermaid\nxychart-beta\n"
        f"    title {_quoted(f'{metric} mean, {a} first bar of each pair, vs {b}')}\n"
        f"    x-axis [{', '.join(labels)}]\n"
        f"    y-axis {_quoted(unit or metric)} 0 --> {top:g}\n"
        f"    bar [{', '.join(series[a])}]\n"
        f"    bar [{', '.join(series[b])}]\n"
        "```\n"
    )
