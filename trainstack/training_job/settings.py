"""The chart settings an operator may not honour: how to tell that a job uses each one.

An operator serves a job API; that API (its CRD) may lack fields the training-job chart
can render, and the API server silently prunes unknown fields of custom resources. Each
entry here is one such setting: the dotted chart-value key, the object field it becomes,
and how to tell whether a job uses it. A served API lists the keys it honours
(``ServedApi.honours``, in the operator catalog, which reads these keys from here); a job
using a setting its operator does not honour is refused at plan time
(``trainstack.experiments.dialect``), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trainstack.training_job.defaults import backoff_limit, clean_pod_policy
from trainstack.training_job.frameworks import framework as framework_spec

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


@dataclass(frozen=True)
class Setting:
    """One chart setting that lands in a field some job APIs do not have."""

    key: str
    """Dotted key in the chart values (and in an experiment's ``job:``)."""
    field: str
    """The object field it becomes, for messages."""
    value: Callable[[TrainingJob], Any]
    """The job's value of the setting."""
    used: Callable[[TrainingJob], bool]
    """Whether ``job`` renders the field, when its framework's object can have it at all
    (``applies_to``; the callers ask both)."""
    without: str
    """How a job does without it (the second fix a message offers)."""

    def applies_to(self, framework: str) -> bool:
        """Whether jobs of ``framework`` can render it at all (its registry entry says)."""
        return self.key in framework_spec(framework).settings


def _set(getter: Callable[[TrainingJob], Any]) -> Callable[[TrainingJob], bool]:
    return lambda job: getter(job) is not None


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "runPolicy.cleanPodPolicy",
        "cleanPodPolicy",
        clean_pod_policy,
        lambda job: True,  # always rendered: pods that hold GPUs must be cleaned up
        "nothing: the chart always sets it",
    ),
    Setting(
        "runPolicy.backoffLimit",
        "backoffLimit",
        backoff_limit,
        _set(backoff_limit),
        "remove runPolicy.backoffLimit (the operator's own retry rule applies)",
    ),
    Setting(
        "runPolicy.activeDeadlineSeconds",
        "activeDeadlineSeconds",
        lambda job: job.run_policy.active_deadline_seconds,
        _set(lambda job: job.run_policy.active_deadline_seconds),
        "remove runPolicy.activeDeadlineSeconds (no time limit)",
    ),
    Setting(
        "runPolicy.ttlSecondsAfterFinished",
        "ttlSecondsAfterFinished",
        lambda job: job.run_policy.ttl_seconds_after_finished,
        _set(lambda job: job.run_policy.ttl_seconds_after_finished),
        "remove runPolicy.ttlSecondsAfterFinished (the finished job is kept)",
    ),
    Setting(
        "scheduling.gang.enabled",
        "runPolicy.schedulingPolicy",
        lambda job: job.scheduling.gang.enabled,
        lambda job: job.scheduling.gang.enabled,
        "set scheduling.gang.enabled: false",
    ),
    Setting(
        "security.seccompProfile",
        "seccompProfile in pod templates",
        lambda job: job.security.seccomp_profile,
        # privileged containers get no seccomp filter: nothing is rendered for them
        lambda job: job.security.seccomp_profile is not None and not job.security.privileged,
        "set security.seccompProfile: null (no profile is requested: the kubelet's default "
        "applies, Unconfined unless it runs with --seccomp-default)",
    ),
    Setting(
        "pytorch.nprocPerNode",
        "spec.nprocPerNode",
        lambda job: job.pytorch.nproc_per_node,
        _set(lambda job: job.pytorch.nproc_per_node),
        "remove pytorch.nprocPerNode (one process per pod)",
    ),
    Setting(
        "pytorch.elasticPolicy",
        "spec.elasticPolicy",
        lambda job: None if job.pytorch.elastic_policy is None else "an elastic policy",
        _set(lambda job: job.pytorch.elastic_policy),
        "remove pytorch.elasticPolicy (a fixed number of workers)",
    ),
    Setting(
        "pytorch.master.replicas",
        "a PyTorchJob without Master (Worker-only)",
        lambda job: job.pytorch.master.replicas,
        lambda job: job.pytorch.master.replicas == 0,
        "set pytorch.master.replicas: 1 (worker.replicas then counts it among the workers, "
        "as Arena's --workers: pytorch.countMasterAsWorker)",
    ),
    Setting(
        "tensorflow.successPolicy",
        "spec.successPolicy",
        lambda job: job.tensorflow.success_policy,
        lambda job: job.tensorflow.success_policy != "ChiefWorker",
        "remove tensorflow.successPolicy (ChiefWorker)",
    ),
)
"""Every setting some served API may not honour."""

ALL_SETTINGS = frozenset(setting.key for setting in SETTINGS)
"""Every setting's key: what an API honours when it honours everything the chart renders."""


def used_settings(job: TrainingJob) -> list[Setting]:
    """The settings ``job`` renders, in the registry's order."""
    return [
        candidate
        for candidate in SETTINGS
        if candidate.applies_to(job.framework) and candidate.used(job)
    ]


def setting(key: str) -> Setting:
    """The setting of ``key`` (a KeyError names the known ones)."""
    for candidate in SETTINGS:
        if candidate.key == key:
            return candidate
    raise KeyError(f"unknown setting {key!r} (known: {', '.join(sorted(ALL_SETTINGS))})")
