"""What a plan holds: every resource the program registered, with its inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trainstack.config.loader import LoadedStack


@dataclass(frozen=True)
class PlannedResource:
    """One registered resource, as Pulumi would send it to the engine (secrets masked)."""

    urn: str
    type: str
    name: str
    parent: str
    inputs: dict[str, Any]
    secret_digests: dict[str, str] = field(default_factory=dict, compare=False)
    """Keyed digests of the masked secrets, by location (only when planning for a diff)."""

    def as_json(self) -> dict[str, Any]:
        """The ``resources.json`` item."""
        return {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "parent": self.parent,
            "inputs": self.inputs,
        }


@dataclass(frozen=True)
class Plan:
    """The resources of one stack, sorted by URN, and notes for the reader."""

    stack: LoadedStack
    resources: tuple[PlannedResource, ...]
    notes: tuple[str, ...] = field(default=())
    config_digests: dict[str, str] = field(default_factory=dict)
    """Keyed digests of the stack file's ``secure:`` values (of their ciphertext)."""

    def of_type(self, type_token: str) -> list[PlannedResource]:
        """Resources of one Pulumi type, e.g. ``kubernetes:core/v1:PersistentVolume``."""
        return [resource for resource in self.resources if resource.type == type_token]
