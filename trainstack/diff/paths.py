"""Locations inside a document (``("spec", "replicas")``) and the leaves that differ.

A location is a tuple of keys and list indices. It prints like the masker's paths
(``spec.template.containers[0].image``), which is how ``secret-digests.json`` names
the masked values it has digests for.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from trainstack.core.describe import describe_value

Location = tuple[str | int, ...]


class _Missing:
    """Stands for "no value here" on the side of a comparison where a key is absent."""

    def __repr__(self) -> str:
        return "(absent)"


MISSING: Any = _Missing()


def dotted(location: Location) -> str:
    """``("spec", "containers", 0, "image")`` -> ``spec.containers[0].image`` (masker style)."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text = f"{text}.{part}" if text else part
    return text


def leaves_equal_to(value: Any, wanted: Any, location: Location = ()) -> Iterator[Location]:
    """Every location in ``value`` whose leaf equals ``wanted`` (e.g. the secret placeholder)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves_equal_to(item, wanted, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves_equal_to(item, wanted, (*location, index))
    elif value == wanted:
        yield location


def replaced(value: Any, replacements: dict[Location, Any], location: Location = ()) -> Any:
    """A copy of ``value`` with the leaves at ``replacements``' locations swapped."""
    if location in replacements:
        return replacements[location]
    if isinstance(value, dict):
        return {key: replaced(item, replacements, (*location, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [replaced(item, replacements, (*location, i)) for i, item in enumerate(value)]
    return value


@dataclass(frozen=True)
class LeafChange:
    """One leaf that differs between two documents; ``MISSING`` on the side that lacks it."""

    location: Location
    before: Any
    after: Any

    def __str__(self) -> str:
        """``inputs.serviceCidr: "172.21.0.0/20" -> "172.22.0.0/20"``, as reviews show it."""
        was, now = describe_value(self.before), describe_value(self.after)
        return f"{dotted(self.location)}: {was} -> {now}"


def leaf_changes(before: Any, after: Any, location: Location = ()) -> Iterator[LeafChange]:
    """The leaves that differ, in document order (mappings by sorted key, lists by index)."""
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            yield from leaf_changes(
                before.get(key, MISSING), after.get(key, MISSING), (*location, key)
            )
    elif isinstance(before, list) and isinstance(after, list):
        for index in range(max(len(before), len(after))):
            yield from leaf_changes(
                before[index] if index < len(before) else MISSING,
                after[index] if index < len(after) else MISSING,
                (*location, index),
            )
    else:
        yield LeafChange(location, before, after)
