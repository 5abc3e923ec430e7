"""The nesting limit of JSON documents, checked the same way whichever reader decoded them.

Python's ``json`` and msgspec both recurse and stop near 1,000 levels with a
``RecursionError``; trainstack refuses anything past
:data:`~trainstack.core.limits.MAX_JSON_DEPTH` instead, with its own message, and maps the
reader's error onto the same message (a document the reader cannot hold is deeper still).

The other limit of Python's reader: an integer of more digits than
``sys.get_int_max_str_digits()`` (4,300) is a ``ValueError`` that is no
``JSONDecodeError``; readers of files say :data:`TOO_MANY_DIGITS` of it.
"""

from __future__ import annotations

import re
import sys
from array import array
from itertools import accumulate
from typing import Any

from trainstack.core.limits import MAX_JSON_DEPTH

TOO_DEEP = f"JSON nested more than {MAX_JSON_DEPTH} deep"
TOO_MANY_DIGITS = f"a number of more digits than Python reads ({sys.get_int_max_str_digits():,})"
ALLOWED_DEPTH = f"at most {MAX_JSON_DEPTH} levels of objects and arrays (trainstack's limit)"


def too_deep(document: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``document`` nests objects and arrays more than ``limit`` deep.

    Walked with an explicit stack (never recursion); typed msgspec structs count as
    objects, so a typed plan file is measured the way its JSON was written.
    """
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        children = _children(value)
        if children is None:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children if _is_container(child))
    return False


def _is_container(value: Any) -> bool:
    return isinstance(value, dict | list | tuple) or hasattr(value, "__struct_fields__")


def _children(value: Any) -> Any:
    if isinstance(value, dict):
        return value.values()
    if isinstance(value, list | tuple):
        return value
    fields = getattr(value, "__struct_fields__", None)
    if fields is not None:
        return [getattr(value, name) for name in fields]
    return None


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in _BRACKETS)
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
"""Opening brackets count +1, closing ones -1 (``0xff`` read as a signed byte)."""


def raw_too_deep(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``data`` nests arrays and objects more than ``limit`` deep.

    Read on the bytes, before any decoder (which recurses) builds the document: strings
    are cut out, the brackets left are counted, in C (``re``, ``bytes.translate``,
    ``itertools.accumulate``), about 10 ms per 10 MB. Text that is not JSON gives an
    answer too; the decoder refuses it afterwards.
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # not even that many openings, strings included: most files
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    if len(brackets) <= limit:
        return False
    return max(accumulate(array("b", brackets.translate(_STEPS)))) > limit
