"""Text from users and clusters in markdown people review (PR comments, reports): shown,
never rendered.

A reason, an experiment or file name, a job argument, a unit, a label or a message from a
cluster can hold anything, and a pull-request comment renders what it is given: a newline
followed by ``# all clear`` is a heading, ``|`` ends a table cell, ``![x](https://...)``
loads an image, ``[here](...)`` is a link, ``@org/team`` notifies a team. Two ways in:

- :func:`code_span` for names, values and table cells: on one line (control characters,
  newlines included, shown escaped as in a terminal: :func:`~trainstack.console.safe_text.
  printable`), inside inline code, where markdown renders nothing (no emphasis, link,
  image, HTML or mention; GitHub documents that mentions are not processed in code),
  delimited by more backticks than the text holds and with ``|`` escaped (GitHub splits
  table cells on it even inside code, unless escaped);
- :func:`markdown_text` for prose that should read as prose: on one line, ``&``, ``<``
  and ``>`` as entities, every CommonMark punctuation that opens something
  (``\\ ` * _ { } [ ] ( ) # + - . ! | ~ =`` and ``:``) backslash-escaped, and ``@``,
  ``://`` and ``www.`` broken by a zero-width space (``&#8203;``) so that nothing
  mentions or links.

In a mermaid chart's quoted labels: :func:`chart_label`.
"""

from __future__ import annotations

import re

from trainstack.console.safe_text import printable

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~=:])")
_ZERO_WIDTH = "&#8203;"


def markdown_text(text: str, limit: int | None = None) -> str:
    """``text`` as inert markdown on one line (see the module's documentation)."""
    shown = printable(text, limit)
    shown = re.sub(r"[&<>]", lambda found: _ENTITIES[found[0]], shown)
    shown = _PUNCTUATION.sub(r"\\\1", shown)
    shown = shown.replace("@", "@" + _ZERO_WIDTH)
    shown = shown.replace("\\:/", "\\:" + _ZERO_WIDTH + "/")
    return re.sub(r"(?i)www\\\.", "www" + _ZERO_WIDTH + "\\.", shown)


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
