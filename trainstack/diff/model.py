"""What a diff works on: plan snapshots of two sides, and what changed between them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from trainstack.diff.paths import Location

if TYPE_CHECKING:
    from trainstack.diff.data_loss import DataRisk
    from trainstack.diff.warnings import Review, WarningChanges

Status = Literal["added", "removed", "changed", "unchanged"]
STATUSES: tuple[Status, ...] = ("added", "removed", "changed", "unchanged")


@dataclass(frozen=True, order=True)
class ObjectKey:
    """How an object is matched across two plans: never by URN, which names the stack.

    Kubernetes objects: ``("kubernetes", kind, namespace, name)``; every other resource:
    ``("pulumi", type, name)``. A fifth/fourth part tells apart two objects of one plan
    that would otherwise share a key (a chart object and a resource of the same name).
    """

    parts: tuple[str, ...]
    label: str = field(compare=False)
    """How people read it: ``PersistentVolumeClaim default/data`` or ``<type> <name>``."""


@dataclass(frozen=True)
class PlanObject:
    """One object of a plan, as it is compared and shown (secrets already masked)."""

    key: ObjectKey
    document: Any
    """The canonical content: a Kubernetes object, or ``{parent, inputs}`` of a resource."""
    secret_digests: Mapping[Location, str]
    """Keyed digests of the masked leaves, by location in ``document``."""
    pulumi_type: str
    """The Pulumi type of the resource (``""`` for objects rendered from a chart)."""
    acceleration: bool = False
    """The acceleration component or one of its descendants."""
    experiment: str | None = None
    """``namespace/name`` of the experiment whose release this object is or belongs to."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The resource's Pulumi options in the plan (``protect``, ``retainOnDelete``...)."""


@dataclass(frozen=True)
class Experiment:
    """One experiment release: its final values and the values before acceleration overrides."""

    name: str
    namespace: str
    release: str
    values: Any
    base_values: Any
    overrides: Any

    @property
    def ref(self) -> str:
        """Stack-independent identity, ``namespace/name``."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class Snapshot:
    """Everything of one stack's plan that a diff compares."""

    stack: str
    objects: Mapping[ObjectKey, PlanObject]
    experiments: Mapping[str, Experiment] = field(default_factory=dict)
    config_digests: Mapping[str, str] = field(default_factory=dict)
    """Digests of the stack file's ``secure:`` values, by config key."""
    exists: bool = True
    """False for a stack that does not exist on this side (every object then added/removed)."""
    datasets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """What each dataset resolves to (``datasets.json``): name -> fact -> {value, key}."""
    review: Review | None = None
    """Warnings and unselected experiments (``review.json``); ``None``: not recorded."""


@dataclass(frozen=True)
class ObjectDiff:
    """One object on both sides: its status and, unless unchanged, the unified diff."""

    key: ObjectKey
    status: Status
    before: PlanObject | None
    after: PlanObject | None
    before_document: Any = None
    """``before.document`` with changed masked values marked ``[secret] (before)``."""
    after_document: Any = None
    diff_lines: tuple[str, ...] = ()
    masked_changes: tuple[Location, ...] = ()
    """Masked leaves whose value changed (known from digests; the values are never seen)."""


@dataclass(frozen=True)
class ConfigChange:
    """A ``secure:`` config key added, removed or changed (its value is never shown)."""

    key: str
    status: Literal["added", "removed", "changed"]


@dataclass(frozen=True)
class StackDiff:
    """The comparison of two sides: every object, the secure config, and notes."""

    before_label: str
    after_label: str
    objects: tuple[ObjectDiff, ...]
    config_changes: tuple[ConfigChange, ...] = ()
    notes: tuple[str, ...] = ()
    data_risks: tuple[DataRisk, ...] = ()
    """Data-bearing resources this change deletes or replaces (shown first, exit 3)."""
    warnings: WarningChanges | None = None
    """The stack's plan-time warnings on both sides (new ones first when shown)."""

    def count(self, status: Status) -> int:
        """How many objects have ``status``."""
        return sum(1 for item in self.objects if item.status == status)

    @property
    def shown(self) -> tuple[ObjectDiff, ...]:
        """The objects a reader sees: everything but the unchanged ones."""
        return tuple(item for item in self.objects if item.status != "unchanged")

    @property
    def has_changes(self) -> bool:
        """Any object or secure config key differs, a warning appears, disappears or is
        acknowledged, or an experiment becomes unselected."""
        warnings = self.warnings is not None and self.warnings.changed
        return bool(self.shown or self.config_changes or warnings)

    @property
    def title(self) -> str:
        """``before -> after``."""
        return f"{self.before_label} -> {self.after_label}"

    def summary(self) -> str:
        """``1 added, 0 removed, 2 changed, 11 unchanged``."""
        return ", ".join(f"{self.count(status)} {status}" for status in STATUSES)
