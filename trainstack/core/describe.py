"""How a value found in a user's file is shown in an error message: short and JSON-like,
so that a huge or deeply nested value never floods the terminal."""

from __future__ import annotations

import json
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
