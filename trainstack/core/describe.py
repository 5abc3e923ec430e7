"""How a value found in a user's file is shown in an error message: short and JSON-like,
so that a huge or deeply nested value never floods the terminal; and the known name it
was probably meant to be."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

_MAX_VALUE_CHARS = 80


def describe_value(value: Any) -> str:
    """Render a value found in a user's file for an error message (short, JSON-like)."""
    try:
        text = json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 3] + "..."
    return text


def did_you_mean(found: str, known: Sequence[str]) -> str:
    """`` (did you mean "desiredSize"?)`` for a key close to a known one (difflib), else ``""``."""
    close = difflib.get_close_matches(found, known, n=1, cutoff=0.75)
    if not close:
        lowered = {key.lower(): key for key in known}
        close = [lowered[found.lower()]] if found.lower() in lowered else []
    return f" (did you mean {describe_value(close[0])}?)" if close else ""
