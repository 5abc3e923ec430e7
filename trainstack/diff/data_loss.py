"""Deletions and replacements of resources that hold data: what a reviewer must approve.

A dataset's populate Job (``components/populate_job.py``) whose spec's digest changed is
**repopulated**: the Job runs again on the data (with ``overwrite: true`` it may rewrite
what is there; without, it refuses and touches nothing), a change to approve too.

A resource is *data-bearing* when its plan protects or retains it (``protect``,
``retainOnDelete``) or when its type holds data whatever its options say: a NAS file
system (the data), its mount target (every cluster's way to it) and a PersistentVolume
(a claim's binding to it). Such a resource is

- **deleted** when it is on the *before* side only: removed from the stack, renamed
  (a new name is a new resource), or its stack is gone;
- **replaced** when an input that forces a new resource changed. For a cloud's
  resources, those its kind of cluster declares (``data_resources`` in
  ``config/clusters/``, taken from the provider's own schema); for a PersistentVolume,
  Kubernetes keeps ``spec.persistentvolumesource`` (``csi``, ``nfs``...), ``volumeMode``
  and ``nodeAffinity`` immutable after creation (``ValidatePersistentVolumeUpdate``), so
  pulumi-kubernetes must replace the PV to change them.

``trainstack diff`` lists these first, in red on a terminal, at the top of the markdown
comment, and exits with status 3 (:data:`DATA_LOSS`) so that a pipeline can require an
approval.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from trainstack.config.clusters.registry import data_resources
from trainstack.diff.model import DataRisk, ObjectDiff, PlanObject
from trainstack.diff.paths import LeafChange, Location, leaf_changes
from trainstack.diff.populate_jobs import job_digest

DATA_LOSS = 3
"""Exit status of ``trainstack diff`` when a data-bearing resource is deleted or replaced."""

PERSISTENT_VOLUME = "kubernetes:core/v1:PersistentVolume"

# Where each data type's replace-forcing inputs live in its diff document.
REPLACED_BY: dict[str, tuple[Location, ...]] = {
    **{
        pulumi_type: tuple(("inputs", name) for name in inputs)
        for pulumi_type, inputs in data_resources().items()
    },
    # A PV's document is the object itself. Every volume source is immutable; these are
    # the ones trainstack writes, plus the other immutable fields.
    PERSISTENT_VOLUME: (
        ("spec", "csi"),
        ("spec", "nfs"),
        ("spec", "volumeMode"),
        ("spec", "nodeAffinity"),
    ),
}


def data_bearing(side: PlanObject) -> bool:
    """Protected or retained by the plan, or of a type that holds data."""
    options = side.options
    return side.pulumi_type in REPLACED_BY or bool(
        options.get("protect") or options.get("retainOnDelete")
    )


def data_risk(item: ObjectDiff) -> DataRisk | None:
    """The risk of one object's change, if it deletes, replaces or repopulates data."""
    repopulated = _repopulated(item)
    if repopulated is not None:
        return repopulated
    before = item.before
    if before is None or not data_bearing(before):
        return None
    guarded = _guards(before)
    if item.status == "removed":
        return DataRisk(item.key.label, "deleted", f"not in the new plan; {guarded}")
    if item.status != "changed" or item.after is None:
        return None
    changes = replacing(before.pulumi_type, leaf_changes(item.before_document, item.after_document))
    if not changes:
        return None
    shown = "; ".join(str(change) for change in changes[:3])
    return DataRisk(item.key.label, "replaced", f"{shown} forces a new resource; {guarded}")


def replacing(pulumi_type: str, changes: Iterable[LeafChange]) -> list[LeafChange]:
    """Those of ``changes`` (of a resource of ``pulumi_type``) that force a new one."""
    forcing = REPLACED_BY.get(pulumi_type, ())
    return [
        change
        for change in changes
        if any(change.location[: len(path)] == path for path in forcing)
    ]


def _guards(side: PlanObject) -> str:
    options = side.options
    if options.get("protect"):
        return "protected: `pulumi up` fails until `pulumi state unprotect`"
    if options.get("retainOnDelete"):
        return "retained: it stays in the cloud, outside the stack"
    return "NOT protected: the data goes with it"


def _repopulated(item: ObjectDiff) -> DataRisk | None:
    """A dataset's populate Job whose spec (digest) changed: it runs again on the data."""
    if item.status != "changed" or item.before is None or item.after is None:
        return None
    was, now = job_digest(item.before_document), job_digest(item.after_document)
    if was is None or now is None or was == now:
        return None
    variable = _overwrite_env(item.after_document)
    overwrite = isinstance(variable, dict) and variable.get("value") == "true"
    what = (
        "overwrite: true, so it may rewrite the files already there"
        if overwrite
        else "without overwrite it refuses to run over the data already there (the Job "
        "fails, nothing is touched); set overwrite: true to rewrite it"
    )
    return DataRisk(
        item.key.label,
        "repopulated",
        f"populate spec changed (sha256:{was[:12]} -> sha256:{now[:12]}): the Job runs "
        f"again on the dataset, {what}",
    )


def _overwrite_env(document: Any) -> Any:
    """The Job container's ``TRAINSTACK_POPULATE_OVERWRITE`` variable, if any."""
    spec = document.get("inputs", document).get("spec", {}) if isinstance(document, dict) else {}
    containers = spec.get("template", {}).get("spec", {}).get("containers", [])
    for container in containers if isinstance(containers, list) else []:
        for variable in container.get("env", []) if isinstance(container, dict) else []:
            if (
                isinstance(variable, dict)
                and variable.get("name") == "TRAINSTACK_POPULATE_OVERWRITE"
            ):
                return variable
    return None
