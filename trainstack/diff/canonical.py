"""Canonical YAML of an object: keys sorted at every level, block style, stable bytes."""

from __future__ import annotations

from typing import Any

from trainstack.yaml_io import dump_yaml


def canonical_yaml(document: Any) -> str:
    """The text a diff compares; the same document always gives the same text."""
    if document is None:
        return ""
    return dump_yaml(_sorted(document))


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _sorted(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value
