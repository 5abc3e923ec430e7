"""How an operator ends a job whose pod fails, as facts read from its source.

A pod whose preflight fails (docs/preflight.md) fails like any pod: what ends the job,
and how long that takes, is the operator's and Kubernetes' doing. Each served API carries
its :class:`FailureFacts` (``ServedApi.failure``), with the lines they come from;
``trainstack.checks.preflight_end`` reads them with the rendered job to state, per role,
the bound. The timings of Kubernetes and Kueue both sides rely on are here:

- The kubelet restarts a failed container after 10 s, 20 s, 40 s... capped at 300 s
  (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy).
- A batch/v1 Job counts the restarts of its pods while they are Pending or Running when
  their restartPolicy is OnFailure, and fails when they reach backoffLimit (its default
  6); then it deletes its active pods, their termination messages with them. With Never
  each failure is a new pod, created after 10 s, 20 s, 40 s... capped at 10 min, and the
  failed pods are kept (kubernetes/kubernetes 6ae037f1db843e99547258d7dd292301a74ba0eb,
  pkg/controller/job/job_controller.go: ``pastBackoffLimitOnFailure``, ``syncJob`` "Remove
  active pods if Job failed", ``DefaultJobPodFailureBackOff``/``MaxJobPodFailureBackOff``;
  https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-backoff-failure-policy).
- Kueue with ``waitForPodsReady`` evicts a job whose pods are not all ready within its
  timeout and requeues it after 60 s, 120 s, 240 s... (at most 3600 s, jitter 0.01 %);
  after ``backoffLimitCount`` requeues the next timeout deactivates it (kubernetes-sigs/
  kueue v0.19.2, apis/config/v1beta2/configuration_types.go:412-439,
  pkg/workload/workload.go:817-832, pkg/controller/core/workload_controller.go:1282-1294).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RoleRun = Literal["job", "pods", "statefulset"]
"""How the operator runs a role's pods: a batch/v1 Job (its backoffLimit, its restarts),
pods of its own, or a StatefulSet (restartPolicy Always)."""

KUBELET_BACKOFF = (10, 300)
"""The kubelet's restart delay: the first, and the cap (seconds)."""
JOB_POD_BACKOFF = (10, 600)
"""A batch Job's delay before it replaces a failed pod: the first, and the cap (seconds)."""
JOB_BACKOFF_LIMIT = 6
"""A batch Job's backoffLimit when it sets none."""
KUEUE_REQUEUE_BACKOFF = (60, 3600)
"""Kueue's requeue delay after an eviction: the base, and the cap (seconds)."""
KUEUE_JITTER = 0.0001
"""Kueue's jitter on a requeue delay (pkg/workload/workload.go:828 at v0.19.2)."""


@dataclass(frozen=True)
class FailureFacts:
    """How an operator runs a job's roles and ends the job when one of their pods fails."""

    runs: dict[str, RoleRun]
    """How each role runs, by role name; ``*``: every other role."""
    default_restart: str = "OnFailure"
    """The restart policy of a role whose object sets none (a TrainJob's runtime's)."""
    pending_restarts_counted: bool = False
    """For pods of its own: its backoffLimit counts the restarts of a pod that is still
    initialising (Pending), as a Job's does; else a failed init container retried in place
    is never counted."""
    never_fails_job: bool = True
    """For pods of its own: a pod that failed with restartPolicy Never fails the job; else
    the job waits (MPIJob v2beta1 workers: only the launcher ends it)."""
    launcher_waits: Literal["always", "launcherCreationPolicy", "never"] = "never"
    """When the launcher is created: once every worker is Ready, as the job's
    ``launcherCreationPolicy`` says, or with the workers."""
    deadline: Literal["job", "launcher", "none"] = "none"
    """What ``activeDeadlineSeconds`` bounds: the whole job, only the launcher's Job, nothing."""
    backoff_default: int | None = None
    """The backoffLimit of a job that sets none; ``None``: no limit."""
    kept: frozenset[str] = frozenset()
    """The cleanPodPolicy values that keep a failed pod of its own when the job ends."""
    kept_when_suspended: frozenset[str] = frozenset()
    """The cleanPodPolicy values that keep a failed pod of its own when Kueue suspends it."""
    sources: tuple[str, ...] = field(default=())
    """Where each fact comes from (file:line at a commit)."""
