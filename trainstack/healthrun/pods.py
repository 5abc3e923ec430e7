"""What the API server says of a run's Jobs, MPIJobs and pods: whether a check ended,
which check a pod belongs to, which pod's log holds the result, why a pod is pending."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainstack.console.safe_text import printable


def node_name(item: dict[str, Any]) -> str:
    return str((item.get("metadata") or {}).get("name"))


def ended_state(item: dict[str, Any]) -> str | None:
    """``Complete``/``Failed`` (a Job), ``Succeeded``/``Failed`` (an MPIJob), or ``None``."""
    for condition in (item.get("status") or {}).get("conditions") or []:
        if not isinstance(condition, dict) or condition.get("status") != "True":
            continue
        if condition.get("type") in ("Complete", "Succeeded", "Failed"):
            reason = condition.get("reason")
            suffix = (
                f" ({printable(str(reason), 80)})"
                if reason and condition["type"] == "Failed"
                else ""
            )
            return f"{condition['type']}{suffix}"
    return None


def owner_of(pod: dict[str, Any]) -> str | None:
    """The Job (or MPIJob) a pod belongs to: the Job controller's label
    (``batch.kubernetes.io/job-name``, and the older ``job-name`` it still sets: Kubernetes
    documentation, "Jobs", Job labels), or the MPI operator's
    ``training.kubeflow.org/job-name`` (with ``training.kubeflow.org/job-role``: the
    Kubeflow training operators' common labels)."""
    labels = (pod.get("metadata") or {}).get("labels") or {}
    found = (
        labels.get("batch.kubernetes.io/job-name")
        or labels.get("job-name")
        or labels.get("training.kubeflow.org/job-name")
    )
    return str(found) if found else None


def reporting_pod(pods: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The pod whose log holds the result: a Job's only pod, an MPIJob's launcher."""
    for pod in sorted(pods, key=lambda p: str(p["metadata"]["name"])):
        labels = pod["metadata"].get("labels") or {}
        if labels.get("training.kubeflow.org/job-role", "launcher") == "launcher":
            return pod
    return None


def unschedulable_reason(pod: dict[str, Any]) -> str | None:
    for condition in (pod.get("status") or {}).get("conditions") or []:
        if (
            isinstance(condition, dict)
            and condition.get("type") == "PodScheduled"
            and condition.get("status") == "False"
        ):
            return printable(str(condition.get("message") or condition.get("reason")), 200)
    return None
