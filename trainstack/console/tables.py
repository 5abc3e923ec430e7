"""Tables as plain text (aligned, no colour: the same bytes on every run) and as markdown."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from trainstack.console.markdown import code_span

_PIPE = re.compile(r"(?<!\\)\|")


def number(value: float | None) -> str:
    """A value as people read it: two decimals, four significant digits below 1."""
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:.2f}" if abs(value) >= 1 or value == 0 else f"{value:.4g}"


def percent(change: float | None) -> str:
    """``+12.0%``."""
    return "-" if change is None or not math.isfinite(change) else f"{change * 100:+.1f}%"


def rounded(value: float | None) -> float | None:
    """A number for JSON: six decimals (no float noise such as 0.1200000000000001), the
    same in every JSON trainstack writes; ``None`` for nothing or a non-finite value."""
    return None if value is None or not math.isfinite(value) else round(value, 6)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Columns padded to their widest cell; columns in ``right`` are right-aligned."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            cell.rjust(width) if index in right else cell.ljust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(row) for row in rows)]) + "\n"


def markdown_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: set[int],
    code: frozenset[int] = frozenset(),
) -> str:
    """A GitHub table; ``|`` inside cells escaped. Cells of the columns in ``code`` (text
    from users: names, units) are shown as inline code
    (:func:`~trainstack.console.markdown.code_span`); the others are trainstack's own
    (numbers, fixed words, or markdown already made safe)."""

    def line(cells: Sequence[str], code: frozenset[int]) -> str:
        shown = [
            code_span(cell) if index in code else _PIPE.sub(r"\\|", cell)
            for index, cell in enumerate(cells)
        ]
        return "| " + " | ".join(shown) + " |"

    rule = "|" + "|".join("---:" if index in right else "---" for index in range(len(headers)))
    body = [line(row, code) for row in rows]
    return "\n".join([line(headers, frozenset()), rule + "|", *body]) + "\n"
