"""Tables as plain text (aligned, no colour: the same bytes on every run) and as markdown."""

from __future__ import annotations

import math
from collections.abc import Sequence


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


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """A GitHub table; ``|`` inside cells escaped."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    rule = "|" + "|".join("---:" if index in right else "---" for index in range(len(headers)))
    return "\n".join([line(headers), rule + "|", *(line(row) for row in rows)]) + "\n"
