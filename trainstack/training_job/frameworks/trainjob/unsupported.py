"""What a Kubeflow Trainer v2 TrainJob cannot carry of the chart's settings.

A TrainJob's pods come from its runtime's JobSet template; the job itself can patch only
what ``spec.runtimePatches`` offers (the CRD of Trainer v2.3.0,
manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml). Each setting below is refused
when used, with why, rather than dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


class Unsupported(NamedTuple):
    """A chart setting a TrainJob cannot carry: refused when ``used``."""

    key: str
    used: Callable[[TrainingJob], bool]
    value: Callable[[TrainingJob], Any]
    allowed: str


WHY = "with framework trainjob"
TORCHTUNE_COMMAND = ["tune", "run"]
"""A trainer command Kubeflow Trainer rewrites (its torch plugin appends the rendezvous,
recipe and config): the preflight must not wrap it."""
UNSUPPORTED: tuple[Unsupported, ...] = (
    Unsupported(
        "preflight.enabled",
        lambda job: job.preflight.enabled and job.command is None,
        lambda job: job.preflight.enabled,
        f"false {WHY} and no command (a TrainJob cannot add the preflight's init container: "
        "the checks run before the trainer's command, and there is none)",
    ),
    Unsupported(
        "preflight.enabled",
        lambda job: job.preflight.enabled and job.command == TORCHTUNE_COMMAND,
        lambda job: job.preflight.enabled,
        f'false {WHY} and command ["tune", "run"] (Kubeflow Trainer v2.3.0 rewrites a '
        "torchtune command only when it is exactly that, pkg/runtime/framework/plugins/"
        "torch/torch.go:175 and pkg/constants/constants.go:315: wrapped by the preflight "
        "it would not, and torchtune would run without its recipe and config)",
    ),
    Unsupported(
        "workingDir",
        lambda job: job.working_dir is not None,
        lambda job: job.working_dir,
        f"null {WHY} (a TrainJob cannot set the working directory)",
    ),
    Unsupported(
        "image.pullPolicy",
        lambda job: job.image.pull_policy not in (None, "IfNotPresent"),
        lambda job: job.image.pull_policy,
        f"null or IfNotPresent {WHY} (a TrainJob cannot set the pull policy: the runtime's "
        "applies)",
    ),
    Unsupported(
        "envFrom",
        lambda job: bool(job.env_from),
        lambda job: f"{len(job.env_from)} source(s)",
        f"[] {WHY} (a TrainJob carries env, not envFrom: use valueFrom in env)",
    ),
    Unsupported(
        "worker.restartPolicy",
        lambda job: job.worker.restart_policy is not None,
        lambda job: job.worker.restart_policy,
        f"null {WHY} (the runtime decides restarts)",
    ),
    Unsupported(
        "worker.readinessProbe",
        lambda job: job.worker.readiness_probe is not None,
        lambda job: "a probe",
        f"null {WHY} (a TrainJob cannot add probes)",
    ),
    Unsupported(
        "worker.livenessProbe",
        lambda job: job.worker.liveness_probe is not None,
        lambda job: "a probe",
        f"null {WHY} (a TrainJob cannot add probes)",
    ),
    Unsupported(
        "runPolicy.cleanPodPolicy",
        lambda job: job.run_policy.clean_pod_policy not in (None, "Running"),
        lambda job: job.run_policy.clean_pod_policy,
        f"null or Running {WHY} (a TrainJob has no cleanPodPolicy)",
    ),
    Unsupported(
        "runPolicy.backoffLimit",
        lambda job: job.run_policy.backoff_limit is not None,
        lambda job: job.run_policy.backoff_limit,
        f"null {WHY} (retries are the runtime's failurePolicy)",
    ),
    Unsupported(
        "runPolicy.ttlSecondsAfterFinished",
        lambda job: job.run_policy.ttl_seconds_after_finished is not None,
        lambda job: job.run_policy.ttl_seconds_after_finished,
        f"null {WHY} (a TrainJob has no TTL)",
    ),
    Unsupported(
        "runPolicy.restartPolicy",
        lambda job: job.run_policy.restart_policy not in (None, "OnFailure"),
        lambda job: job.run_policy.restart_policy,
        f"null or OnFailure {WHY} (the runtime decides restarts)",
    ),
    Unsupported(
        "scheduling.gang.enabled",
        lambda job: job.scheduling.gang.enabled,
        lambda job: True,
        f"false {WHY} (gangs come from the runtime's podGroupPolicy; or queue with Kueue)",
    ),
    Unsupported(
        "scheduling.priorityClassName",
        lambda job: job.scheduling.priority_class_name is not None,
        lambda job: job.scheduling.priority_class_name,
        f"null {WHY} (a TrainJob cannot set the pods' priority class)",
    ),
    Unsupported(
        "scheduling.schedulerName",
        lambda job: job.scheduling.scheduler_name is not None,
        lambda job: job.scheduling.scheduler_name,
        f"null {WHY} (a TrainJob cannot set the pods' scheduler)",
    ),
    Unsupported(
        "network.hostNetwork",
        lambda job: job.network.host_network,
        lambda job: True,
        f"false {WHY} (a TrainJob cannot set hostNetwork)",
    ),
    Unsupported(
        "security.hostIPC",
        lambda job: job.security.host_ipc,
        lambda job: True,
        f"false {WHY} (a TrainJob cannot set hostIPC)",
    ),
    Unsupported(
        "security.hostPID",
        lambda job: job.security.host_pid,
        lambda job: True,
        f"false {WHY} (a TrainJob cannot set hostPID)",
    ),
    Unsupported(
        "codeSync.mode",
        lambda job: job.code_sync.enabled,
        lambda job: job.code_sync.mode,
        f"none {WHY} (a TrainJob cannot add init containers)",
    ),
)
"""Every setting a TrainJob cannot carry, in the order the rules report them."""
