"""The raw lines a figure was read from, kept beside it (bounded)."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.health.model import MAX_EXCERPT_CHARS, Figure


def excerpt(lines: Sequence[str]) -> str:
    """``lines`` joined, their end kept when they are longer than a figure may keep (the
    last lines hold the figure)."""
    text = "\n".join(line.rstrip() for line in lines)
    if len(text) <= MAX_EXCERPT_CHARS:
        return text
    return "..." + text[-(MAX_EXCERPT_CHARS - 3) :]


def figure(value: float, lines: Sequence[str]) -> Figure:
    """A figure with the lines it came from."""
    return Figure(value=round(value, 3), excerpt=excerpt(lines))
