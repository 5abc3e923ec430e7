"""Is the comparison of two stacks fair? Sort every difference into expected or not.

Two stacks measured against each other (``aiacc`` and ``baseline``) must differ only in
what the comparison is about. Each difference is classified:

- ``acceleration`` (expected): objects of the acceleration component
  (``trainstack:acceleration:Acceleration``) and everything below it; and differences in
  an experiment's release or rendered objects when that experiment's ``baseValues`` are
  equal on both sides and only its acceleration overrides differ. For the release
  resource itself only ``inputs.values`` counts: a different chart version is not an
  override.
- ``cluster identity`` (expected: two stacks are two clusters): a leaf whose key is an
  identity key of a kind of cluster (``identity_keys`` in ``config/clusters/``; any
  resource, any depth, or one type's top-level input: a created cluster's
  ``name``); the ``kubeconfig``, ``context`` and ``cluster`` inputs of a
  ``pulumi:providers:kubernetes`` provider; the ``secure:`` config key
  ``trainstack:kubeconfig`` and the providers' secure keys (a cloud's credentials), also
  when only one stack sets them; a dataset's populate Job on one side and the Job
  waiting for it on the other, with the same populate digest. Nothing else: a VPC,
  vSwitch or region decides where nodes and data live, which changes throughput.
- ``other``: everything else (node pool shape, datasets, operator versions, an
  experiment's shape, an object on one side only...). Any ``other`` difference makes the
  report unfair.

Experiments are also compared by what their pods get once their team's LimitRange fills
in what they leave unset (``effectiveResources`` of ``experiments.json``): a CPU or memory
limit on one side only changes throughput. Datasets are also compared by what they
*resolve to* (:mod:`trainstack.diff.fairness_data`): two stacks whose PVs look alike but
point at two file systems read different data, and two that declare different manifest
digests do too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from trainstack.config.clusters.registry import identity_keys
from trainstack.core.describe import describe_value
from trainstack.diff.environment import EnvironmentReport
from trainstack.diff.fairness_data import dataset_findings
from trainstack.diff.model import ConfigChange, ObjectDiff, PlanObject, Snapshot, StackDiff
from trainstack.diff.paths import MISSING, LeafChange, Location, dotted, leaf_changes
from trainstack.diff.populate_jobs import populate_digest, populate_digests
from trainstack.diff.snapshot import CONFIG_TYPE
from trainstack.health.verdict import HealthReport
from trainstack.plan.charts import HELM_RELEASE
from trainstack.plan.masking import SECRET

Category = Literal["acceleration", "cluster identity", "other"]
CATEGORIES: tuple[Category, ...] = ("other", "acceleration", "cluster identity")

KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"
_PROVIDER_IDENTITY = {("inputs", "kubeconfig"), ("inputs", "context"), ("inputs", "cluster")}
_IDENTITY_KEYS = identity_keys()
_KUBECONFIG_CONFIG = "trainstack:kubeconfig"
_SHOWN_CHANGES = 8


@dataclass(frozen=True)
class Finding:
    """One difference and its category: what differs (``subject``) and how (``detail``)."""

    category: Category
    subject: str
    detail: str


@dataclass(frozen=True)
class FairnessReport:
    """Every difference between two stacks, classified."""

    before_label: str
    after_label: str
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    environment: EnvironmentReport | None = None
    """The clusters' facts compared (:mod:`trainstack.diff.environment`), when asked for."""
    health: HealthReport | None = None
    """The two stacks' GPU health compared (:mod:`trainstack.health.verdict`), when asked for."""

    @property
    def fair(self) -> bool:
        """Only expected differences, declared and observed: throughput can be compared."""
        observed = self.environment is None or self.environment.comparable
        healthy = self.health is None or self.health.comparable
        return not self.of("other") and observed and healthy

    def of(self, category: Category) -> tuple[Finding, ...]:
        """The findings of one category, in object order."""
        return tuple(finding for finding in self.findings if finding.category == category)


def classify(stack_diff: StackDiff, before: Snapshot, after: Snapshot) -> FairnessReport:
    """Classify every difference of ``stack_diff`` (made from ``before`` and ``after``)."""
    findings: list[Finding] = []
    both = populate_digests(before) & populate_digests(after)
    for item in stack_diff.shown:
        digests = {populate_digest(side) for side in (item.before, item.after) if side}
        if len(digests) == 1 and digests <= both:  # one cluster fills it, the other waits
            detail = f"fills, or waits for, the same data (populate sha256:{digests.pop()})"
            findings.append(Finding("cluster identity", item.key.label, detail))
        else:
            findings += _object_findings(item, before, after, stack_diff)
    findings += [_config_finding(change) for change in stack_diff.config_changes]
    data, notes = dataset_findings(before, after, stack_diff.before_label, stack_diff.after_label)
    findings += [Finding("other", subject, detail) for subject, detail in data]
    findings += _resource_findings(before, after)
    return FairnessReport(
        before_label=stack_diff.before_label,
        after_label=stack_diff.after_label,
        findings=tuple(findings),
        notes=(*stack_diff.notes, *notes),
    )


def _object_findings(
    item: ObjectDiff, before: Snapshot, after: Snapshot, stack_diff: StackDiff
) -> list[Finding]:
    sides = [side for side in (item.before, item.after) if side is not None]
    subject = item.key.label
    if all(side.acceleration for side in sides):
        return [Finding("acceleration", subject, _presence_or_changes(item, stack_diff))]
    if any(side.experiment for side in sides):
        return _experiment_findings(item, before, after, stack_diff)
    if _is_credential(sides):
        return [Finding("cluster identity", subject, _presence_or_changes(item, stack_diff))]
    if item.status != "changed":
        return [Finding("other", subject, _presence(item, stack_diff))]
    pulumi_type = item.before.pulumi_type if item.before else ""
    identity, other = _split(item, lambda location: _is_identity(pulumi_type, location))
    found = []
    if other:
        found.append(Finding("other", subject, _describe(other)))
    if identity:
        found.append(Finding("cluster identity", subject, _describe(identity)))
    return found


def _resource_findings(before: Snapshot, after: Snapshot) -> list[Finding]:
    """Experiments on both sides whose pods get different requests or limits once their
    team's LimitRange is applied (``effectiveResources`` of ``experiments.json``): the
    objects can be equal while the namespaces give them different CPU or memory."""
    found = []
    for ref in sorted(set(before.experiments) & set(after.experiments)):
        old, new = before.experiments[ref].resources, after.experiments[ref].resources
        if old is not None and new is not None and old != new:
            changes = _describe(leaf_changes(old, new))
            found.append(Finding("other", f"experiment {ref}", f"its pods get {changes}"))
    return found


def _is_credential(sides: Sequence[PlanObject]) -> bool:
    """A provider setting stored as a secret: credentials, which differ per cluster."""
    return all(side.pulumi_type == CONFIG_TYPE for side in sides) and any(
        isinstance(side.document, dict) and side.document.get("value") == SECRET for side in sides
    )


def _experiment_findings(
    item: ObjectDiff, before: Snapshot, after: Snapshot, stack_diff: StackDiff
) -> list[Finding]:
    subject = item.key.label
    refs = sorted({str(side.experiment or "(none)") for side in (item.before, item.after) if side})
    ref = refs[0]
    if len(refs) > 1:
        owners = " and ".join(refs)
        return [Finding("other", subject, f"belongs to different experiments: {owners}")]
    old, new = before.experiments.get(ref), after.experiments.get(ref)
    if old is None or new is None:
        where = stack_diff.before_label if new is None else stack_diff.after_label
        return [Finding("other", subject, f"experiment {ref} exists only in {where}")]
    if old.base_values != new.base_values:
        changes = list(leaf_changes(old.base_values, new.base_values))
        return [
            Finding("other", subject, f"experiment {ref} base values differ: " + _describe(changes))
        ]
    if old.overrides == new.overrides:
        return [
            Finding(
                "other",
                subject,
                f"differs although experiment {ref} has the same "
                f"values on both sides: " + _presence_or_changes(item, stack_diff),
            )
        ]
    # The cause, not how each object shows it: the releases and jobs of every experiment
    # with the same overrides share one line of the report.
    reason = "acceleration overrides differ: " + _describe(
        leaf_changes(old.overrides, new.overrides)
    )
    if item.status != "changed":
        return [Finding("acceleration", subject, f"{_presence(item, stack_diff)} ({reason})")]
    if item.before and item.before.pulumi_type != HELM_RELEASE:
        return [Finding("acceleration", subject, reason)]
    values, other = _split(item, lambda location: location[:2] == ("inputs", "values"))
    found = [Finding("other", subject, _describe(other))] if other else []
    if values:
        found.append(Finding("acceleration", subject, reason))
    return found


def _config_finding(change: ConfigChange) -> Finding:
    identity = change.key == _KUBECONFIG_CONFIG or not change.key.startswith("trainstack:")
    return Finding(
        "cluster identity" if identity else "other",
        f"secure config {change.key}",
        f"{change.status} (value masked)",
    )


def _is_identity(pulumi_type: str, location: Location) -> bool:
    keys = [part for part in location if isinstance(part, str)]
    if keys and keys[-1] in _IDENTITY_KEYS:
        return True
    if len(location) == 2 and location[0] == "inputs":
        return f"{pulumi_type}#{location[1]}" in _IDENTITY_KEYS
    return pulumi_type == KUBERNETES_PROVIDER and tuple(location[:2]) in _PROVIDER_IDENTITY


def _split(
    item: ObjectDiff, wanted: Callable[[Location], bool]
) -> tuple[list[LeafChange], list[LeafChange]]:
    """The leaf changes of ``item`` that ``wanted(location)`` accepts, and the rest."""
    yes: list[LeafChange] = []
    no: list[LeafChange] = []
    for change in leaf_changes(item.before_document, item.after_document):
        (yes if wanted(change.location) else no).append(change)
    return yes, no


def _presence(item: ObjectDiff, stack_diff: StackDiff) -> str:
    return (
        f"only in {stack_diff.after_label}"
        if item.status == "added"
        else f"only in {stack_diff.before_label}"
    )


def _presence_or_changes(item: ObjectDiff, stack_diff: StackDiff) -> str:
    if item.status != "changed":
        return _presence(item, stack_diff)
    return _describe(leaf_changes(item.before_document, item.after_document))


def _describe(changes: Iterable[LeafChange]) -> str:
    """``spec.replicas: 2 -> 4; ...`` for the first few changes, then how many more."""
    listed = list(changes)
    shown = [
        f"{dotted(change.location) or '(whole)'}: {_value(change.before)} -> {_value(change.after)}"
        for change in listed[:_SHOWN_CHANGES]
    ]
    if len(listed) > _SHOWN_CHANGES:
        shown.append(f"and {len(listed) - _SHOWN_CHANGES} more")
    return "; ".join(shown)


def _value(value: Any) -> str:
    return "(absent)" if value is MISSING else describe_value(value)
