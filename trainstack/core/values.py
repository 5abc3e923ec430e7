"""Merging job values: mappings merge key by key, everything else is replaced."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any


def merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` on top, as Helm merges ``-f`` files (lists replace)."""
    result = copy.deepcopy(dict(base))
    for key, value in override.items():
        current = result.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            result[key] = merged(current, value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def set_path(values: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """A copy of ``values`` with ``a.b.c`` set to ``value`` (intermediate mappings created)."""
    result = copy.deepcopy(values)
    keys = dotted.split(".")
    cursor = result
    for key in keys[:-1]:
        nested = cursor.get(key)
        if not isinstance(nested, dict):
            nested = {}
            cursor[key] = nested
        cursor = nested
    cursor[keys[-1]] = value
    return result
