"""Text from users or outside made safe inside markdown people review (PR comments, reports).

A unit, an experiment file name, an acknowledgement reason, a message from a cluster:
put into a markdown comment as it is, such text can open a heading (``# all clear``), a
new table row or cell (a newline, ``|``), an image (``![x](https://...)``), a link (also
a bare ``https://`` that GitHub links by itself), raw HTML, or mention a person or team
(``@org/team``). :func:`markdown_text` keeps it on one line and inert:

- control characters are escaped as in the terminal (:func:`printable`),
  so a newline shows as ``\\n`` and never starts a line;
- ``&``, ``<`` and ``>`` become entities (no HTML, no entity of the text's own);
- every character CommonMark treats as punctuation that opens something is
  backslash-escaped: ``\\ ` * _ { } [ ] ( ) # + - . ! | ~ =`` and ``:``;
- ``@`` is followed by a zero-width space (``&#8203;``), which GitHub does not take for
  a mention, and ``://`` and ``www.`` are broken the same way, so that no bare URL links.

Use it for every piece of user or outside text in markdown; the project's own words
(headings, code spans it writes) stay as they are.
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
