"""The populate Job of each dataset (or the Job waiting for it) as ``trainstack status``
shows it: its state, and why.

A stack's dataset that mounts a populated file system has a ``batch/v1`` Job of a known
name (:func:`~trainstack.config.data_sources.populate_job_name`): the one that fills it
on the stack the data stack names, the one that waits for it on the others. Every
experiment of the stack waits for it, so when it fails the reason is what the user
needs: the line its container ended with (its termination message, else the last line
of its log), else why the Job controller ended it (its ``Failed`` condition: reason and
message, e.g. ``DeadlineExceeded``: the pods are deleted with it).

The Job controller's names, from k8s.io/api v0.35.7 batch/v1/types.go: the pods' label
``batch.kubernetes.io/job-name`` (lines 28, 48), the conditions ``Suspended``,
``Complete``, ``Failed``, ``FailureTarget`` (lines 606-613) and the reasons
``BackoffLimitExceeded``, ``DeadlineExceeded`` (lines 625-627).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lightkube.generic_resource import create_namespaced_resource

from trainstack.config.data_sources import ResolvedDataset, populate_job_name
from trainstack.config.loader import LoadedStack
from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError, JobNotFoundError
from trainstack.live.api import Malformed
from trainstack.live.cluster import Cluster
from trainstack.live.preflight import MAX_CHARS

JOBS = create_namespaced_resource("batch", "v1", "Job", "jobs")
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
# A condition whose status is "True" decides the phase, most telling first.
_PHASES = (
    ("Failed", "Failed"),
    ("FailureTarget", "Failed"),
    ("Complete", "Succeeded"),
    ("Suspended", "Suspended"),
)
LOG_TAIL = 5
"""Log lines read to find the last non-blank one."""


@dataclass(frozen=True)
class DataJobRow:
    """The populate (or wait) Job of one dataset, as found on the cluster."""

    dataset: str
    namespace: str
    job: str
    role: str
    """``populate`` (this stack fills the dataset) or ``wait`` (another stack does)."""
    phase: str
    """``Pending``, ``Running``, ``Succeeded``, ``Failed``, ``Suspended``, ``not found``."""
    condition: str = ""
    """The reason of the condition that ended it (``DeadlineExceeded``...); empty if none."""
    reason: str = ""
    """``POD: LINE`` (the line its container ended with, or the last of its log), else the
    condition's message; empty when there is nothing to say."""


def data_job_rows(
    stack: LoadedStack, datasets: tuple[ResolvedDataset, ...], cluster: Cluster
) -> list[DataJobRow]:
    """A row per dataset of ``stack`` with a populate spec (the Job it creates for it)."""
    namespaces = {dataset.name: dataset.namespace for dataset in stack.config.datasets}
    rows = []
    for item in datasets:
        if item.populate is None:
            continue
        name = populate_job_name(item.name, item.populates)
        role = "populate" if item.populates else "wait"
        rows.append(_row(cluster, item.name, namespaces[item.name], name, role))
    return rows


def _row(cluster: Cluster, dataset: str, namespace: str, name: str, role: str) -> DataJobRow:
    what = f"reading Job {name} in namespace {namespace}"
    job = cluster.reader.get(JOBS, name, what, namespace=namespace)
    if job is None:
        return DataJobRow(dataset, namespace, name, role, "not found")
    with cluster.reader.errors(what):
        status = _checked(job)
    phase, condition, message = _phase(status)
    if phase == "Succeeded":  # its reason (CompletionsReached) adds nothing
        return DataJobRow(dataset, namespace, name, role, phase)
    pods = cluster.list_pods(namespace, {JOB_NAME_LABEL: name})
    line = _pod_line(cluster, namespace, pods)
    reason = line or (printable(message, MAX_CHARS) if phase in ("Failed", "Suspended") else "")
    return DataJobRow(dataset, namespace, name, role, phase, condition, reason)


def _checked(job: Mapping[str, Any]) -> Mapping[str, Any]:
    status = job.get("status") or {}
    conditions = status.get("conditions") if isinstance(status, Mapping) else None
    if not isinstance(status, Mapping) or not isinstance(conditions or [], list):
        raise Malformed("a Job whose `status` or `status.conditions` is of the wrong type")
    if not all(isinstance(c, Mapping) for c in conditions or []):
        raise Malformed("a Job whose `status.conditions` holds an entry that is no object")
    return status


def _phase(status: Mapping[str, Any]) -> tuple[str, str, str]:
    """(phase, condition reason, condition message) from the Job's conditions and counts."""
    true = {
        str(c.get("type")): c for c in status.get("conditions") or [] if c.get("status") == "True"
    }
    for kind, phase in _PHASES:
        if kind in true:
            return phase, str(true[kind].get("reason") or ""), str(true[kind].get("message") or "")
    return ("Running" if status.get("active") else "Pending"), "", ""


def _pod_line(cluster: Cluster, namespace: str, pods: list[dict[str, Any]]) -> str:
    """``POD: LINE`` of the pod that tells most: the last failed one, else the newest."""
    if not pods:
        return ""
    ordered = sorted(pods, key=lambda p: (str(p["metadata"].get("creationTimestamp")), _name(p)))
    failed = [p for p in ordered if (p.get("status") or {}).get("phase") == "Failed"]
    pod = (failed or ordered)[-1]
    line = _container_line(pod.get("status") or {})
    if line is None:
        line = _last_log_line(cluster, namespace, pod)
    return f"{printable(_name(pod), 80)}: {printable(line, MAX_CHARS)}" if line else ""


def _name(pod: Mapping[str, Any]) -> str:
    return str(pod["metadata"]["name"])


def _container_line(status: Mapping[str, Any]) -> str | None:
    """The last line of a failed container's termination message (or its exit code and
    reason without one), or why a container waits (an image that cannot be pulled);
    ``None``: no container failed or waits, the log tells more."""
    for key in ("initContainerStatuses", "containerStatuses"):
        for container in status.get(key) or []:
            if not isinstance(container, Mapping):
                continue
            state = container.get("state") or {}
            terminated = state.get("terminated") or {}
            if terminated.get("exitCode") not in (None, 0):
                lines = [ln for ln in str(terminated.get("message") or "").splitlines() if ln]
                if lines:
                    return lines[-1].strip()
                why = f" ({terminated['reason']})" if terminated.get("reason") else ""
                return f"container {container.get('name')} exited {terminated['exitCode']}{why}"
            waiting = state.get("waiting") or {}
            if waiting.get("reason") not in (None, "ContainerCreating", "PodInitializing"):
                message = f": {waiting['message']}" if waiting.get("message") else ""
                return f"container {container.get('name')} waiting, {waiting['reason']}{message}"
    return None


def _last_log_line(cluster: Cluster, namespace: str, pod: Mapping[str, Any]) -> str:
    """The last non-blank line of the pod's first container's log; empty when there is no
    log to read (not started yet, or the pod is gone)."""
    containers = (pod.get("spec") or {}).get("containers") or []
    if not containers:
        return ""
    try:
        lines = list(cluster.log_lines(namespace, _name(pod), containers[0]["name"], tail=LOG_TAIL))
    except (JobNotFoundError, ClusterError):
        return ""  # a container not started (400) or a pod deleted since it was listed
    written = [line.strip() for line in lines if line.strip()]
    return written[-1] if written else ""


def data_job_text(rows: Sequence[DataJobRow]) -> str:
    """``dataset D: populate Job J (namespace N) PHASE[, CONDITION]`` per row, each with
    its reason on a line of its own; empty without rows."""
    lines = []
    for row in rows:
        job = "populate Job" if row.role == "populate" else "Job waiting for its populate Job,"
        condition = f", {printable(row.condition, 80)}" if row.condition else ""
        lines.append(
            f"dataset {row.dataset}: {job} {row.job} (namespace {row.namespace}) "
            f"{row.phase}{condition}\n"
        )
        if row.reason:
            lines.append(f"reason {row.job}: {row.reason}\n")
    return "".join(lines)
