"""What a job runs with where it leaves a key null: trainstack's default, or, with
``arenaSubmit``, what ``arena submit`` sets (docs/arena-parity.md).

The chart computes the same in ``_defaults.tpl`` (``training-job.defaults.*``); the keys
are null in values.yaml so that both can tell "left to the default" from "set". What
differs by framework is data on its spec, read here and, through its generated
``training-job.<framework>.info``, by the chart: restart policies per role
(``FrameworkSpec.run_defaults``), and Arena's restart policies, clean-pod policy and
``backoffLimit`` (``FrameworkSpec.arena``), each with its source in the framework's
package. Arena's values for every framework (kubeflow/arena v0.15.5,
e30882c143cc2be32b7ed767ae0f78681892741b): ``--working-dir`` default ``/root``,
``--image-pull-policy`` default ``Always`` (pkg/argsbuilder/submit.go:107-109, 140-141).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.training_job.frameworks import framework

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob
    from trainstack.training_job.run_policy import RestartPolicy

ARENA_WORKING_DIR = "/root"
CLEAN_POD_POLICY = "Running"
"""trainstack's clean-pod policy: frees the GPUs and keeps finished pods' logs, and a failed
pod's preflight line (docs/preflight.md)."""


def working_dir(job: TrainingJob) -> str | None:
    """The containers' working directory (``None``: the image's)."""
    if job.working_dir is None and job.arena_submit:
        return ARENA_WORKING_DIR
    return job.working_dir


def pull_policy(job: TrainingJob) -> str:
    """When the kubelet pulls the image."""
    if job.image.pull_policy is not None:
        return job.image.pull_policy
    return "Always" if job.arena_submit else "IfNotPresent"


def clean_pod_policy(job: TrainingJob) -> str:
    """Which pods the operator deletes when the job ends."""
    if job.run_policy.clean_pod_policy is not None:
        return job.run_policy.clean_pod_policy
    arena = framework(job.framework).arena
    if job.arena_submit and arena is not None:
        return dict(arena.clean_pod_policy).get(job.operator_api, CLEAN_POD_POLICY)
    return CLEAN_POD_POLICY


def backoff_limit(job: TrainingJob) -> int | None:
    """Retries before the job fails (``None``: the operator's)."""
    if job.run_policy.backoff_limit is not None:
        return job.run_policy.backoff_limit
    arena = framework(job.framework).arena
    return arena.backoff_limit if job.arena_submit and arena is not None else None


def restart_policy(job: TrainingJob, role: str, own: RestartPolicy | None) -> str:
    """The restart policy of ``role`` whose own setting is ``own`` (a pinned role, such as
    MPI's workers, takes its own or its framework's, whatever runPolicy says)."""
    if own is not None:
        return own
    spec = framework(job.framework)
    pinned = dict(spec.run_defaults.pinned)
    if role in pinned:
        return pinned[role]
    if job.run_policy.restart_policy is not None:
        return job.run_policy.restart_policy
    policies = spec.run_defaults.restart
    if job.arena_submit and spec.arena is not None:
        policies = spec.arena.restart
    return policies.of(role, {pods.role: pods.replicas for pods in spec.role_pods(job)})
