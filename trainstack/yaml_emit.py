"""The plan's YAML views written directly, byte for byte as libyaml writes them.

A plan writes one YAML view per resource and per object: for 200 experiments, 2 MB of
YAML, which PyYAML's representer (Python, even with libyaml's emitter) took a third of
a second to produce. The views are plain data (mappings with text keys, lists, text,
integers, booleans, nulls), and for such data libyaml's output follows a few rules, which
:func:`block_yaml` applies. It takes only what it can vouch for: text of printable ASCII
on one line, at most :data:`MAX_TEXT` characters (libyaml folds long lines at spaces),
keys that are text, no float, no object met twice (libyaml would write an anchor); for
anything else it returns ``None`` and :func:`trainstack.yaml_io.dump_yaml` asks PyYAML.
Whether a plain scalar would read back as another type (``"true"``, ``"1.5"``, ``"~"``,
``"0x1F"``...) is asked of PyYAML's own resolver, which decides the quotes in libyaml's
output too.

libyaml's rules, for block style with an indent of 2 (``yaml_emitter_analyze_scalar``
and ``yaml_emitter_select_scalar_style`` in libyaml's ``emitter.c``): a key's nested
mapping is indented by 2, its list is not (``key:`` then ``- item`` at the key's
column); a mapping or list inside a list item starts on the item's line (``- key:
value``, ``- - item``); empty collections are written ``{}`` and ``[]``; text is plain
unless it is empty, starts or ends with a space, starts with an indicator (``#,[]{}&*!|>'"%@```,
``-``/``?``/``:`` before a space or at the end, ``---`` or ``...``), contains ``": "``
or ``" #"``, ends with ``:``, or would read back as another type: then it is single
quoted, quotes doubled.
"""

from __future__ import annotations

import functools
from typing import Any

import yaml

MAX_TEXT = 1000
"""Longer text goes to PyYAML: libyaml breaks lines longer than its width at spaces."""
MAX_KEY = 100
"""Longer keys go to PyYAML: libyaml writes keys over 128 characters as complex keys."""

_STR_TAG = "tag:yaml.org,2002:str"
_INDICATORS_FIRST = frozenset("#,[]{}&*!|>'\"%@`")
_RESOLVER = yaml.resolver.Resolver()
"""The resolver of PyYAML's ``CSafeDumper``, which :func:`trainstack.yaml_io.dump_yaml` uses."""


class _Unsupported(Exception):
    """Data this module does not write (PyYAML does)."""


def block_yaml(data: Any) -> str | None:
    """``data`` as PyYAML's ``dump`` writes it with libyaml (block style, keys in order,
    width 4096, literal blocks for text with newlines); ``None`` when this module cannot
    vouch for the output."""
    if type(data) not in (dict, list):
        return None  # a root scalar gets a document end marker
    if not data:
        return "{}\n" if isinstance(data, dict) else "[]\n"
    lines: list[str] = []
    try:
        _node(data, 0, lines, set())
    except _Unsupported:
        return None
    lines.append("")
    return "\n".join(lines)


def _node(value: Any, indent: int, lines: list[str], seen: set[int]) -> None:
    """The lines of a non-empty collection whose first line starts at column ``indent``."""
    if id(value) in seen:
        raise _Unsupported  # the same object twice: libyaml writes an anchor and an alias
    seen.add(id(value))
    pad = " " * indent
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or len(key) > MAX_KEY:
                raise _Unsupported
            head = f"{pad}{_text(key)}:"
            if type(item) in (dict, list) and item:
                lines.append(head)
                # A list under a key starts at the key's column; a mapping 2 further.
                _node(item, indent + 2 if type(item) is dict else indent, lines, seen)
            else:
                lines.append(f"{head} {_scalar(item)}")
    elif type(value) is list:
        for item in value:
            if type(item) in (dict, list) and item:
                start = len(lines)
                _node(item, indent + 2, lines, seen)
                lines[start] = f"{pad}- {lines[start][indent + 2 :]}"
            else:
                lines.append(f"{pad}- {_scalar(item)}")
    else:
        raise _Unsupported


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _text(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if kind is dict:
        return "{}"  # empty: non-empty ones are nodes
    if kind is list:
        return "[]"
    raise _Unsupported  # floats (libyaml's spelling of them), other types


def _text(value: str) -> str:
    if len(value) > MAX_TEXT or not value.isascii() or not value.isprintable():
        raise _Unsupported  # long, non-ASCII, or with newlines or control characters
    if _plain(value) and _reads_as_text(value):
        return value
    return "'" + value.replace("'", "''") + "'"


def _plain(value: str) -> bool:
    """Whether libyaml may write ``value`` (printable ASCII, one line) plain in block style."""
    if not value or value[0] == " " or value[-1] == " ":
        return False
    if value.startswith(("---", "...")) or value[0] in _INDICATORS_FIRST:
        return False
    if value[0] in "-?:" and (len(value) == 1 or value[1] == " "):
        return False
    return ": " not in value and " #" not in value and not value.endswith(":")


@functools.lru_cache(maxsize=8192)
def _reads_as_text(value: str) -> bool:
    """Whether ``value`` written plain reads back as text (YAML 1.1, as PyYAML resolves)."""
    return _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR_TAG
