"""The words of a comparison, the same in every format: the change with its interval, the
p-value, whether the runs resolve the change, the verdict."""

from __future__ import annotations

import math
from collections.abc import Sequence

from trainstack.console.tables import percent
from trainstack.results.change import MAX_RUNS_NEEDED, Change
from trainstack.results.compare import Row

SIGNIFICANCE = 0.05


def p_text(p_value: float | None) -> str:
    """``p=0.012``, ``p<0.001``, or ``-``."""
    if p_value is None:
        return "-"
    return "p<0.001" if p_value < 0.001 else f"p={p_value:.3f}"


def interval_text(stats: Change | None) -> str:
    """``+11.0% .. +13.0%`` or ``-``."""
    if stats is None or stats.interval is None:
        return "-"
    return f"{percent(stats.interval[0])} .. {percent(stats.interval[1])}"


def needs_text(stats: Change) -> str:
    """``needs ~6 runs per side`` (or ``more than 10000``), or ""."""
    if stats.runs_needed is None:
        return ""
    if stats.runs_needed > MAX_RUNS_NEEDED:
        return f"needs more than {MAX_RUNS_NEEDED} runs per side"
    return f"needs ~{stats.runs_needed} runs per side"


def verdict(row: Row) -> str:
    """One phrase: who is better (at 95%), or why nothing can be said, and the runs needed."""
    stats = row.stats
    if row.mlperf is not None and row.comparable:
        return row.mlperf.verdict(row.a.stack, row.b.stack)
    if not row.comparable or stats is None:
        return "not comparable"
    if stats.too_few:
        needs = needs_text(stats)
        return stats.too_few + (f"; {needs}" if needs else "; needs at least 2 runs per side")
    significant = stats.p_value is not None and stats.p_value < SIGNIFICANCE
    if stats.p_value is None and stats.interval is not None:  # no spread at all
        significant = stats.interval[0] != 0 or stats.interval[1] != 0
    if significant:
        said = f"{row.a.stack} better" if stats.estimate > 0 else f"{row.b.stack} better"
    else:
        said = "no significant difference"
    if stats.resolved:
        return said
    resolve = f"±{stats.resolve * 100:g}%"
    return f"{said}; {resolve} not resolved: {needs_text(stats)}"


def unchecked_of(rows: Sequence[Row]) -> list[str]:
    """Why the environments or data of some pairs were not compared (runs from saved logs,
    datasets without a manifest on a side)."""
    verdicts = [v for row in rows for v in (row.environment, row.datasets)]
    return sorted({v.reason for v in verdicts if v.status == "unknown"} - {""})


def sentence(row: Row) -> str:
    """The verdict of one row as a sentence, e.g. for the report's first lines."""
    stats = row.stats
    if row.mlperf is not None and row.comparable:
        return f"{row.experiment}, {row.metric}: {percent(row.change)} (MLPerf scores): " + (
            verdict(row)
        )
    if stats is None:
        return f"{row.experiment}, {row.metric}: not comparable: {row.reason}"
    runs = f"n={stats.runs[0]} on {row.a.stack}, {stats.runs[1]} on {row.b.stack}"
    interval = interval_text(stats)
    detail = f"95% CI {interval}, {p_text(stats.p_value)}" if interval != "-" else stats.too_few
    change = percent(stats.estimate) if math.isfinite(stats.estimate) else "-"
    return f"{row.experiment}, {row.metric}: {change} ({detail}; {runs}): {verdict(row)}"
