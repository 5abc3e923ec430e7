"""What a diff works on: plan snapshots of two sides, and what changed between them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from trainstack.cost.change import CostChange
from trainstack.cost.record import CostFile
from trainstack.diff.paths import LeafChange, Location
from trainstack.plan.capacity_record import CapacityFile

if TYPE_CHECKING:
    from trainstack.diff.capacity import CapacityChange

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
    resources: Any = None
    """Per role, what its pods get after the team's LimitRange (``effectiveResources``)."""

    @property
    def ref(self) -> str:
        """Stack-independent identity, ``namespace/name``."""
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True, order=True)
class ReviewedWarning:
    """One warning of a plan, acknowledged (with the reason) or not."""

    identity: tuple[str, ...]
    """What matches it across plans: file, experiment, key, id, message (the stack file's name
    left out); it also orders warnings by file."""
    check: str = field(compare=False)
    source: str = field(compare=False)
    experiment: str = field(compare=False)
    key: str = field(compare=False)
    message: str = field(compare=False)
    reason: str | None = field(default=None, compare=False)
    """Why it is meant, when acknowledged."""
    acknowledged_in: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        text = f"{self.source}: experiment {self.experiment}: {self.key}: {self.message}"
        text += f" [{self.check}]"
        if self.reason is not None:
            text += f" (acknowledged in {self.acknowledged_in}: {self.reason})"
        return text


@dataclass(frozen=True)
class Review:
    """A plan's ``review.json``."""

    warnings: tuple[ReviewedWarning, ...] = ()
    acknowledged: tuple[ReviewedWarning, ...] = ()
    not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) of every experiment the stack does not select."""


@dataclass(frozen=True)
class WarningChanges:
    """One stack's warnings on both sides of a diff."""

    new: tuple[ReviewedWarning, ...] = ()
    """Warnings of the new side that the old side did not give (or had acknowledged)."""
    gone: tuple[ReviewedWarning, ...] = ()
    """Warnings (acknowledged or not) of the old side that the new side does not give."""
    unchanged: tuple[ReviewedWarning, ...] = ()
    acknowledged: tuple[tuple[ReviewedWarning, bool], ...] = ()
    """The new side's acknowledged warnings, each with whether it is newly acknowledged."""
    newly_not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) the new side's stack does not select and the old side's did (or
    that did not exist there)."""
    not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) neither side's stack selects."""
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Warnings appear, disappear or become acknowledged; experiments become unselected."""
        fresh = any(is_new for _, is_new in self.acknowledged)
        return bool(self.new or self.gone or fresh or self.newly_not_selected)

    @property
    def any(self) -> bool:
        """Anything to show (a plan that records no warnings is said, even with none)."""
        shown = self.unchanged or self.acknowledged or self.not_selected or self.notes
        return bool(self.changed or shown)


@dataclass(frozen=True)
class DataRisk:
    """A data-bearing resource that the change deletes or replaces, or a dataset whose
    populate spec changed (its Job runs again on the data), and why."""

    label: str
    kind: Literal["deleted", "replaced", "repopulated"]
    reason: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.label} ({self.reason})"


@dataclass(frozen=True)
class NotApplied:
    """A resource of the before side whose inputs read at creation only changed: ``pulumi
    up`` reports success and the running resource never gets the change."""

    label: str
    changes: tuple[LeafChange, ...]
    """Each changed leaf under such an input (``inputs.addons[5]``), before and after."""
    why: str
    """What becomes of the change and what to do instead (the cluster kind's words)."""

    SHOWN: ClassVar[int] = 3

    def shown(self) -> str:
        """The first :attr:`SHOWN` changes, ``path: before -> after``, and how many more."""
        text = "; ".join(str(change) for change in self.changes[: self.SHOWN])
        more = len(self.changes) - self.SHOWN
        return f"{text}; and {more} more" if more > 0 else text

    def __str__(self) -> str:
        return f"{self.label} ({self.shown()}): {self.why}"


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
    cost: CostFile | None = None
    """The stack's cost figures (``cost.json``); ``None``: not recorded, or a data stack."""
    capacity: CapacityFile | None = None
    """The pools and the teams' GPU quotas (``capacity.json``); ``None``: not recorded."""


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
    not_applied: tuple[NotApplied, ...] = ()
    """Resources whose inputs read at creation only changed (shown next; no exit status
    of their own: a change, 1)."""
    warnings: WarningChanges | None = None
    """The stack's plan-time warnings on both sides (new ones first when shown)."""
    cost: CostChange | None = None
    """What the stack costs on both sides (shown after the changes); ``None``: neither side
    recorded a cost (data stacks)."""
    capacity: CapacityChange | None = None
    """The pools whose GPUs, CPU or memory change, and the teams' quota coverage after."""

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
