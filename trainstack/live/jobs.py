"""A training job on the cluster as trainstack sees it: run, digest, phase, timing, pods."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainstack.core.errors import JobNotFoundError
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.runs import (
    DIGEST_ANNOTATION,
    EXPERIMENT_LABEL,
    OVERRIDES_ANNOTATION,
    RUN_ANNOTATION,
)
from trainstack.live.cluster import Cluster, checked_job
from trainstack.live.pod_labels import pod_label_choices
from trainstack.operators.spec import PodLabels
from trainstack.training_job.frameworks import FrameworkSpec, framework

# Kubeflow job conditions (JobConditionType), most telling first.
_PHASES = ("Succeeded", "Failed", "Suspended", "Restarting", "Running", "Created")


@dataclass(frozen=True)
class LiveJob:
    """One job object read from the cluster."""

    spec: FrameworkSpec
    name: str
    namespace: str
    experiment: str
    run: int | None
    digest: str | None
    phase: str
    start_time: str | None
    completion_time: str | None
    status: Mapping[str, Any]
    pods_expected: int
    created: str = ""
    """``metadata.creationTimestamp`` (RFC 3339, UTC: sorts as it reads)."""
    overrides: str | None = None
    """The ``--set`` values of a run ``trainstack run`` created, as recorded on it
    (:data:`~trainstack.experiments.runs.OVERRIDES_ANNOTATION`); ``None`` on other jobs."""


def phase_of(status: Mapping[str, Any]) -> str:
    """The job's phase from its conditions (``Pending`` before the operator sets any)."""
    true = {
        c.get("type")
        for c in status.get("conditions") or []
        if isinstance(c, dict) and c.get("status") == "True"
    }
    return next((phase for phase in _PHASES if phase in true), "Pending")


def _run(annotations: Mapping[str, Any]) -> int | None:
    value = annotations.get(RUN_ANNOTATION)
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def live_job(spec: FrameworkSpec, item: Mapping[str, Any]) -> LiveJob:
    """A job object (as the API returns it) read into :class:`LiveJob`."""
    metadata = item.get("metadata") or {}
    annotations = metadata.get("annotations") or {}
    status = item.get("status") or {}
    return LiveJob(
        spec=spec,
        name=str(metadata.get("name")),
        namespace=str(metadata.get("namespace")),
        experiment=str((metadata.get("labels") or {}).get(EXPERIMENT_LABEL, "")),
        run=_run(annotations),
        digest=_text(annotations.get(DIGEST_ANNOTATION)),
        phase=phase_of(status),
        start_time=status.get("startTime"),
        completion_time=status.get("completionTime"),
        status=status,
        pods_expected=_pods_expected(spec, item.get("spec") or {}),
        created=_text(metadata.get("creationTimestamp")) or "",
        overrides=_text(annotations.get(OVERRIDES_ANNOTATION)),
    )


def _pods_expected(spec: FrameworkSpec, job_spec: Mapping[str, Any]) -> int:
    """The pods a job object starts: its replica specs' replicas; an MPIJob v1alpha1 (one
    template, ``spec.replicas`` workers) has one launcher besides its workers."""
    replica_specs = job_spec.get(spec.replica_specs_key) if spec.replica_specs_key else None
    if isinstance(replica_specs, Mapping):
        return sum(int((role or {}).get("replicas") or 0) for role in replica_specs.values())
    if "template" in job_spec and isinstance(job_spec.get("replicas"), int):
        return int(job_spec["replicas"]) + 1
    return 0


def job_reader(spec: FrameworkSpec) -> Callable[[dict[str, Any]], LiveJob]:
    """A job object of ``spec``'s kind, checked (its fields' types), read into a LiveJob."""
    return lambda item: live_job(spec, checked_job(item, spec))


def experiment_jobs(cluster: Cluster, experiment: Experiment) -> list[LiveJob]:
    """Every job of ``experiment`` on the cluster (all its runs): the deployed runs by run
    number, then the runs ``trainstack run`` created (no number) in the order they were
    created, so that the last is the latest."""
    spec = framework(experiment.job.framework)
    jobs = cluster.list_jobs(
        spec,
        experiment.namespace,
        {EXPERIMENT_LABEL: experiment.point_name},
        job_reader(spec),
        spec.api_version_in(experiment.job.operator_api),
    )
    return sorted(jobs, key=lambda job: (job.run is None, job.run or 0, job.created, job.name))


def pick_run(
    jobs: Sequence[LiveJob],
    experiment: Experiment,
    run: int | None,
    where: str,
    name: str | None = None,
) -> LiveJob:
    """The job of ``run``, or named ``name`` (a run of ``trainstack run``); default: the
    latest on the cluster (:func:`experiment_jobs`' order); an error when missing."""
    if run is not None:
        jobs = [job for job in jobs if job.run == run]
    if name is not None:
        jobs = [job for job in jobs if job.name == name]
    if not jobs:
        which = f"run {run} of " if run is not None else ""
        which = f"job {name!r} of " if name is not None else which
        raise JobNotFoundError(
            f"no {framework(experiment.job.framework).kind} of {which}experiment "
            f"{experiment.point_name} in namespace {experiment.namespace} ({where}); "
            "is it deployed (`pulumi up`)? `trainstack status` lists what is there"
        )
    return jobs[-1]


def role_pods(
    cluster: Cluster, job: LiveJob, role: str | None, operator: PodLabels | None
) -> list[dict[str, Any]]:
    """The pods of ``job`` (of one ``role``): by the operator's labels, else the chart's."""
    for labels in pod_label_choices(operator):
        pods = cluster.list_pods(job.namespace, labels.selector(job.name, role))
        if pods:
            return pods
    return []


def pod_ready(pod: Mapping[str, Any]) -> bool:
    """Whether the pod's Ready condition is true."""
    conditions = (pod.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)


def training_container(pod: Mapping[str, Any]) -> str:
    """The pod's first container: the chart's training container (sidecars come after it)."""
    containers = (pod.get("spec") or {}).get("containers") or [{}]
    return str(containers[0].get("name") or "")
