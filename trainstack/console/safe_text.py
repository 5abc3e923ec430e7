"""Text from outside (an API server's answer, a label, an image name) made safe to print.

A string a cluster returns can hold anything: an escape sequence that recolours or
clears the terminal, moves the cursor or sets its title (``ESC ]``), a carriage return
that overwrites the line before it, a right-to-left override that shows text backwards.
Every such string is shown through :func:`printable`: each control or invisible format
character becomes a visible escape (``\\x1b``, ``\\r``, ``\\u202e``), and a string longer
than ``limit`` is cut with how much was left out. What remains prints as it reads.
"""

from __future__ import annotations

import re
import unicodedata

DEFAULT_LIMIT = 200
"""Characters of one outside string shown in a message (the rest is counted)."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
# C0 controls, DEL, C1 controls: the terminal acts on them.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\\]")
_CONTROL_BUT_TAB = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\\]")


def _escape(character: str) -> str:
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _invisible(character: str) -> bool:
    """Format characters (bidi overrides, zero-width ones), separators other than the space,
    unassigned and private-use code points: shown escaped, never as they are."""
    return unicodedata.category(character) in {"Cf", "Zl", "Zp", "Cn", "Co", "Cs"}


def printable(text: str, limit: int | None = DEFAULT_LIMIT, tabs: bool = False) -> str:
    """``text`` with every control and invisible character escaped (a backslash too, so
    that an escape shown is never mistaken for one sent), cut after ``limit`` characters
    (``None``: never cut); ``tabs``: a tab is kept as it is (a log's columns)."""
    cut = ""
    if limit is not None and len(text) > limit:
        cut = f"... ({len(text) - limit} more characters)"
        text = text[:limit]
    text = (_CONTROL_BUT_TAB if tabs else _CONTROL).sub(lambda found: _escape(found[0]), text)
    if not text.isascii():
        text = "".join(_escape(c) if _invisible(c) else c for c in text)
    return text + cut


_TERMINAL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def terminal_line(text: str) -> str:
    """``text`` as one line a terminal shows as it reads: control characters (a newline
    too: a message never forges a second line) and invisible ones escaped; tabs and
    backslashes kept (the last line of defence under every report line and message,
    where :func:`printable` was not already applied)."""
    text = _TERMINAL.sub(lambda found: _escape(found[0]), text)
    if not text.isascii():
        text = "".join(_escape(c) if _invisible(c) else c for c in text)
    return text
