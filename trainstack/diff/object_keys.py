"""How the objects of a plan are keyed so that two stacks' plans line up.

URNs contain the stack's name, so two stacks' URNs never match: a Kubernetes object is
keyed by kind, namespace and name, anything else by its Pulumi type and name, and
objects that share such a key get where they came from appended.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from trainstack.diff.model import ObjectKey, PlanObject
from trainstack.diff.paths import Location
from trainstack.plan.files import STACK_TYPE
from trainstack.plan.masking import COMPUTED


@dataclass(frozen=True)
class Entry:
    """An object of a plan before keys are made unique: its natural key and where it came
    from."""

    parts: tuple[str, ...]
    label: str
    origin: str
    document: Any
    digests: dict[Location, str]
    pulumi_type: str
    acceleration: bool
    experiment: str | None
    options: dict[str, Any] = field(default_factory=dict)


def kubernetes_identity(inputs: dict[str, Any]) -> tuple[tuple[str, ...], str] | None:
    """``(kind, namespace, name)`` of a Kubernetes object, when the plan knows its name."""
    metadata = inputs.get("metadata")
    kind = inputs.get("kind")
    if not isinstance(kind, str) or not isinstance(metadata, dict):
        return None
    name, namespace = metadata.get("name"), metadata.get("namespace") or ""
    if not isinstance(name, str) or name == COMPUTED or not isinstance(namespace, str):
        return None  # auto-named: only the Pulumi type and name identify it
    return ("kubernetes", kind, namespace, name), kubernetes_label(kind, namespace, name)


def kubernetes_label(kind: str, namespace: str, name: str) -> str:
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def stack_free(urn: str) -> str:
    """``<type>::<name>`` of a URN (``urn:pulumi:STACK::PROJECT::TYPE$...::NAME``)."""
    parts = urn.split("::", 3)
    if len(parts) < 4:
        return urn
    type_token = parts[2].split("$")[-1]
    return type_token if type_token == STACK_TYPE else f"{type_token}::{parts[3]}"


def unique_keys(entries: list[Entry]) -> dict[ObjectKey, PlanObject]:
    """Key every entry; entries sharing a natural key get their origin appended."""
    groups: dict[tuple[str, ...], list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[entry.parts].append(entry)
    objects: dict[ObjectKey, PlanObject] = {}
    for parts, group in sorted(groups.items()):
        for entry in sorted(group, key=lambda e: e.origin):
            clash = len(group) > 1
            key = ObjectKey(
                parts=(*parts, entry.origin) if clash else parts,
                label=f"{entry.label} [{entry.origin}]" if clash else entry.label,
            )
            objects[key] = PlanObject(
                key=key,
                document=entry.document,
                secret_digests=entry.digests,
                pulumi_type=entry.pulumi_type,
                acceleration=entry.acceleration,
                experiment=entry.experiment,
                options=entry.options,
            )
    return objects
