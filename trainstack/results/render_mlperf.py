"""``results compare --rule mlperf`` as text, markdown and JSON: each side's MLPerf score,
the runs kept and dropped, the change, with the rule printed above the answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table, number, percent, rounded, text_table
from trainstack.results.compare import Row
from trainstack.results.mlperf import Score, rule_text
from trainstack.results.verdict import verdict


def mlperf_json(row: Row) -> dict[str, Any]:
    """The rule of a row and, by MLPerf's, both sides' scores."""
    scored = row.mlperf
    if scored is None:
        return {"rule": "welch"}
    sides = {}
    for key, side in (("a", scored.a), ("b", scored.b)):
        sides[key] = {
            "runs": side.runs,
            "failed": side.failed,
            "status": side.status,
            "score": rounded(side.score),
            "keptRuns": list(side.kept),
            "droppedRuns": list(side.dropped),
        }
    return {"rule": "mlperf", "mlperf": {**sides, "minRuns": scored.min_runs}}


def _headers(a: str, b: str) -> list[str]:
    return [
        "experiment",
        "metric",
        "unit",
        f"{a} runs (failed)",
        f"{a} score",
        f"{b} runs (failed)",
        f"{b} score",
        "change",
        "verdict",
    ]


def _side(side: Score | None) -> tuple[str, str]:
    if side is None:
        return "-", "-"
    return f"{side.runs} ({side.failed})", number(side.score) if side.score else "-"


def _cells(row: Row) -> list[str]:
    scored = row.mlperf
    a_runs, a_score = _side(scored.a if scored else None)
    b_runs, b_score = _side(scored.b if scored else None)
    change = percent(row.change) if row.comparable else "not comparable"
    return [row.experiment, row.metric, row.unit, a_runs, a_score, b_runs, b_score, change,
            verdict(row)]  # fmt: skip


def _rule(rows: Sequence[Row]) -> str:
    scored = next((row.mlperf for row in rows if row.mlperf), None)
    return rule_text(scored.min_runs) if scored else rule_text(5)


def mlperf_text(rows: Sequence[Row], a: str, b: str, notes: Sequence[str]) -> str:
    """The rule, the table, then the notes."""
    out = [f"{a} vs {b}: {_rule(rows)}; change: how much better {a}'s score is\n\n"]
    cells = [[printable(cell, None) for cell in _cells(row)] for row in rows]
    out.append(text_table(_headers(a, b), cells, {3, 4, 5, 6, 7}))
    if notes:
        out.append("\nnot comparable, left out or flagged:\n")
        out += [f"  - {printable(note, None)}\n" for note in notes]
    return "".join(out)


def mlperf_markdown(rows: Sequence[Row], a: str, b: str, notes: Sequence[str]) -> str:
    """The same as a pull-request comment."""
    out = [f"### Results: {code_span(a)} vs {code_span(b)}\n\n", f"{_rule(rows)}.\n\n"]
    out.append(
        markdown_table(
            _headers(a, b), [_cells(row) for row in rows], {3, 4, 5, 6, 7}, frozenset({0, 1, 2})
        )  # fmt: skip
    )
    if notes:
        out.append("\n**Not comparable, left out or flagged**\n\n")
        out += [f"- {code_span(note)}\n" for note in notes]
    return "".join(out)
