"""What a plan holds: every resource the program registered, with its inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trainstack.checks import Finding
from trainstack.checks.acknowledge import Acknowledged
from trainstack.checks.enforcement import Enforcement
from trainstack.config.data_sources import ResolvedDataset
from trainstack.config.loader import AnyStack
from trainstack.core.mentions import Files
from trainstack.cost.estimate import StackCost
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.select import NotSelected


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
    options: dict[str, Any] = field(default_factory=dict)
    """Resource options: protect, retainOnDelete, deleteBeforeReplace, dependsOn (URNs),
    provider (URN), replaceOnChanges, ignoreChanges; ``read: true`` for a read."""

    def as_json(self) -> dict[str, Any]:
        """The ``resources.json`` item."""
        return {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "parent": self.parent,
            "inputs": self.inputs,
            "options": self.options,
        }


@dataclass(frozen=True)
class RenderedObject:
    """An object of a release of the project's own chart, rendered offline by Helm."""

    release: str
    """URN of the Helm release resource the object belongs to."""
    object: dict[str, Any]
    secret_digests: dict[str, str] = field(default_factory=dict, compare=False)
    """Keyed digests of the masked secrets, by location (only when planning for a diff)."""

    @property
    def key(self) -> tuple[str, str, str]:
        """(kind, namespace, name): how objects are matched across plans."""
        metadata = self.object.get("metadata") or {}
        return (
            str(self.object.get("kind", "")),
            str(metadata.get("namespace", "")),
            str(metadata.get("name", "")),
        )

    def as_json(self) -> dict[str, Any]:
        """The ``objects.json`` item."""
        kind, namespace, name = self.key
        return {
            "release": self.release,
            "apiVersion": self.object.get("apiVersion", ""),
            "kind": kind,
            "namespace": namespace,
            "name": name,
            "object": self.object,
        }


@dataclass(frozen=True)
class Plan:
    """The resources of one stack, sorted by URN, and notes for the reader."""

    stack: AnyStack
    resources: tuple[PlannedResource, ...]
    notes: tuple[str, ...] = field(default=())
    config_digests: dict[str, str] = field(default_factory=dict)
    """Keyed digests of the stack file's ``secure:`` values (of their ciphertext)."""
    provider_config: dict[str, Any] = field(default_factory=dict)
    """Stack config outside `trainstack:` (e.g. a cloud provider's region), secrets masked: it
    configures the default providers, which register no resource the plan could show."""
    objects: tuple[RenderedObject, ...] = field(default=())
    experiments: tuple[Experiment, ...] = field(default=())
    warnings: tuple[Finding, ...] = field(default=())
    outputs: dict[str, Any] = field(default_factory=dict)
    """The stack's outputs (``pulumi.export``), masked like inputs."""
    datasets: tuple[ResolvedDataset, ...] = field(default=())
    """What each dataset resolves to (``datasets.json``, read by the fairness report)."""
    enforcement: dict[str, Enforcement] = field(default_factory=dict)
    """How each team's share is enforced, by team name."""
    acknowledged: tuple[Acknowledged, ...] = field(default=())
    """Warnings a file acknowledges (not in :attr:`warnings`)."""
    not_selected: tuple[NotSelected, ...] = field(default=())
    """Experiments of the experiments directory that the stack does not select, by file."""
    cost: StackCost | None = None
    """What the stack's pools and experiments cost (``cost.json``); ``None``: a data stack."""
    files: Files = field(default_factory=dict)
    """The files read for it, by the name messages give them (where printed messages find
    their keys' lines; never written into the plan: a line that moves is no change)."""

    def of_type(self, type_token: str) -> list[PlannedResource]:
        """Resources of one Pulumi type, e.g. ``kubernetes:core/v1:PersistentVolume``."""
        return [resource for resource in self.resources if resource.type == type_token]
