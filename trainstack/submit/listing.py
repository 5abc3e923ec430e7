"""The runs ``trainstack run`` created on a stack's cluster: listed, and deleted one by one.

A run is found by its labels (:data:`~trainstack.experiments.runs.SUBMITTED_LABEL`,
:data:`~trainstack.experiments.runs.STACK_LABEL`), in each namespace the stack's teams
and experiments use, in each job kind an enabled operator serves. Before anything is
deleted, each object is checked to be trainstack's: labelled as a run of this stack and
applied by the field manager ``trainstack`` (``metadata.managedFields``), so a job of
``pulumi up``, of Helm or of anyone else is never touched; the deletion goes through a
server dry run first, and names the object's ``uid`` as a precondition.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lightkube.generic_resource import create_namespaced_resource

from trainstack.config.loader import LoadedStack
from trainstack.console.safe_text import printable
from trainstack.core.errors import JobNotFoundError, TrainstackError
from trainstack.experiments.overrides import read_recorded
from trainstack.experiments.runs import (
    OVERRIDES_ANNOTATION,
    STACK_LABEL,
    SUBMITTED_BY,
    SUBMITTED_LABEL,
)
from trainstack.live.cluster import Cluster, checked_job
from trainstack.live.jobs import LiveJob, live_job
from trainstack.live.writes import FIELD_MANAGER, ObjectRef, ObjectWriter
from trainstack.submit.objects import COMPANION_KINDS
from trainstack.training_job.frameworks import FRAMEWORKS, FrameworkSpec


@dataclass(frozen=True)
class ListedRun:
    """A run's job on the cluster, and what trainstack needs to delete it."""

    job: LiveJob
    ref: ObjectRef
    uid: str
    created: str
    ttl: int | None
    overrides: dict[str, Any] | None
    managers: tuple[str, ...]


def run_selector(stack: str) -> dict[str, str]:
    """The labels of every run ``trainstack run`` created on ``stack``."""
    return {SUBMITTED_LABEL: SUBMITTED_BY, STACK_LABEL: stack}


def namespaces_of(stack: LoadedStack, experiment_namespaces: set[str]) -> list[str]:
    """Where the stack's runs can be: its teams' namespaces and its experiments'."""
    return sorted({team.namespace_name for team in stack.config.teams} | experiment_namespaces)


def list_runs(stack: LoadedStack, cluster: Cluster, namespaces: list[str]) -> list[ListedRun]:
    """Every run of ``stack`` in ``namespaces``, oldest first (then by name)."""
    found: list[ListedRun] = []
    for spec in FRAMEWORKS:
        serving = stack.config.operators.serving(spec.crd)
        if serving is None or serving[1].dialect is None:
            continue
        api_version = spec.api_version_in(serving[1].dialect)
        for namespace in namespaces:
            found += cluster.list_jobs(
                spec,
                namespace,
                run_selector(stack.name),
                functools.partial(_listed, spec=spec, api_version=api_version),
                api_version,
            )
    return sorted(found, key=lambda run: (run.created, run.job.name))


def _listed(item: dict[str, Any], *, spec: FrameworkSpec, api_version: str) -> ListedRun:
    job = live_job(spec, checked_job(item, spec))
    metadata = item.get("metadata") or {}
    annotations = metadata.get("annotations") or {}
    found = item.get("spec")
    spec_section: dict[str, Any] = found if isinstance(found, dict) else {}
    policy = spec_section.get("runPolicy") or {}
    # Under runPolicy (kubeflow.org APIs), or directly under spec (ack-arena's TFJob/PyTorchJob).
    ttl = policy.get("ttlSecondsAfterFinished") if isinstance(policy, Mapping) else None
    ttl = spec_section.get("ttlSecondsAfterFinished") if ttl is None else ttl
    recorded = annotations.get(OVERRIDES_ANNOTATION)
    return ListedRun(
        job=job,
        ref=ObjectRef(api_version, spec.kind, spec.plural, job.namespace, job.name),
        uid=str(metadata.get("uid") or ""),
        created=str(metadata.get("creationTimestamp") or ""),
        ttl=ttl if type(ttl) is int else None,
        overrides=read_recorded(recorded) if isinstance(recorded, str) else None,
        managers=managers_of(metadata),
    )


@functools.cache
def _resource(api_version: str, kind: str, plural: str) -> Any:
    """lightkube's class of a kind, made once (lightkube registers each kind once)."""
    group, _, version = api_version.rpartition("/")
    return create_namespaced_resource(group, version, kind, plural)


def managers_of(metadata: Mapping[str, Any]) -> tuple[str, ...]:
    """The field managers that applied (``operation: Apply``) the object."""
    return tuple(
        sorted(
            {
                str(entry.get("manager"))
                for entry in metadata.get("managedFields") or []
                if isinstance(entry, dict) and entry.get("operation") == "Apply"
            }
        )
    )


def delete_run(
    stack: LoadedStack, writer: ObjectWriter, cluster: Cluster, runs: list[ListedRun], name: str
) -> list[str]:
    """Delete run ``name`` (its job, its pods, its TensorBoard); what was deleted."""
    chosen = [run for run in runs if run.job.name == name]
    if not chosen:
        known = ", ".join(run.job.name for run in runs) or "none"
        raise JobNotFoundError(
            f"no run {printable(name, 80)!r} of stack {stack.name} on the cluster "
            f"({writer.where()}); its runs: {known} (`trainstack runs {stack.name}` lists "
            "them; only runs `trainstack run` created can be deleted here)"
        )
    run = chosen[0]
    targets = [(run.ref, run.uid, run.managers)]
    for api_version, kind, plural in COMPANION_KINDS:
        for item in _companions(cluster, run, api_version, kind, plural, stack.name):
            metadata = item.get("metadata") or {}
            ref = ObjectRef(api_version, kind, plural, run.ref.namespace, str(metadata["name"]))
            targets.append((ref, str(metadata.get("uid") or ""), managers_of(metadata)))
    for ref, uid, managers in targets:
        if FIELD_MANAGER not in managers or not uid:
            raise TrainstackError(
                f"{ref.shown()} was not applied by trainstack (its managers: "
                f"{', '.join(printable(m, 40) for m in managers) or 'none'}): not deleted"
            )
    for ref, uid, _ in targets:
        writer.remove(ref, uid, dry_run=True)
    for ref, uid, _ in targets:
        writer.remove(ref, uid, dry_run=False)
    return [ref.shown() for ref, _, _ in targets]


def _companions(
    cluster: Cluster, run: ListedRun, api_version: str, kind: str, plural: str, stack: str
) -> list[dict[str, Any]]:
    """The run's objects of ``kind`` beside its job (by its release's instance label)."""
    resource = _resource(api_version, kind, plural)
    labels = {**run_selector(stack), "app.kubernetes.io/instance": run.job.name}
    what = f"listing {plural} of run {run.job.name} in namespace {run.ref.namespace}"
    items: list[dict[str, Any]] = cluster.reader.list(
        resource, what, lambda item: item, namespace=run.ref.namespace, labels=labels
    )
    return items
