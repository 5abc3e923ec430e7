"""Text from users and clusters in a markdown comment: shown, never rendered.

A reason, an experiment or file name, a job argument, a unit or a label can hold
anything, and a pull-request comment renders what it is given: a newline followed by
``# all clear`` is a heading, ``|`` ends a table cell, ``![x](https://...)`` loads an
image, ``[here](...)`` is a link, ``@org/team`` notifies a team. So every such string goes
into the comment through one function, :func:`code_span`: on one line (control characters,
newlines included, shown escaped as in a terminal: :func:`~trainstack.console.safe_text.
printable`), inside inline code, where markdown renders nothing (no emphasis, link, image,
HTML or mention; GitHub documents that mentions are not processed in code), delimited by
more backticks than the text holds and with ``|`` escaped (GitHub splits table cells on it
even inside code, unless escaped). In a mermaid chart's quoted labels: :func:`chart_label`.
"""

from __future__ import annotations

import re

from trainstack.console.safe_text import printable

ESCAPED_PIPE = "\\|"


def code_span(text: str, limit: int | None = None, printed: bool = False) -> str:
    """``text`` as inline code on one line, safe in a paragraph, a list or a table cell
    (``printed``: ``text`` is already :func:`printable`'s, not escaped twice)."""
    text = text if printed else printable(text, limit)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{ticks}{padded.replace('|', ESCAPED_PIPE)}{ticks}"


def chart_label(text: str) -> str:
    """``text`` for a quoted label of a mermaid chart: one line, no double quote (which
    would end the label), no backtick (a line of them would end the code block)."""
    return printable(text, 80).replace('"', "'").replace("`", "'")
