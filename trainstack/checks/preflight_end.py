"""When a pod's preflight fails: what ends its job, within how long, and whether the line
stays for ``trainstack status`` (docs/preflight.md#when-a-check-fails).

Read from the rendered job (each role's restart policy, ``backoffLimit``,
``activeDeadlineSeconds``, ``cleanPodPolicy``, ``launcherCreationPolicy``, the launcher's
wait for its workers' names) and its operator's :class:`FailureFacts`, with Kueue's
limits when the job is queued. A bound is the most seconds from a pod's first failed
check to the job's end (failed, or deactivated by Kueue): the restarts' back-offs plus
each run of the checks, which take milliseconds except the launcher's wait for its
workers' names. ``None``: nothing ends the job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import ceil
from typing import Any

from trainstack.operators.failure import (
    JOB_POD_BACKOFF,
    KUBELET_BACKOFF,
    KUEUE_JITTER,
    KUEUE_REQUEUE_BACKOFF,
    FailureFacts,
    RoleRun,
)

_RETRIED = ("OnFailure", "Always", "ExitCode")
WAITING = "the launcher waits for every worker to be Ready"
FIX_RETRIED = (
    "bound it: restartPolicy Never for that role, runPolicy.activeDeadlineSeconds (or a "
    "backoffLimit where its operator counts restarts before Running), or queue the team's "
    "jobs (trainstack:queueing)"
)
FIX_WAITING = (
    "queue the team's jobs (trainstack:queueing): a queued MPIJob gets its launcher at "
    "admission, which fails on the worker, and Kueue bounds the job"
)


@dataclass(frozen=True)
class Kueue:
    """The limits of Kueue's ``waitForPodsReady`` for a queued job."""

    timeout: int
    """podsReadyTimeout, in seconds."""
    requeue_limit: int

    @property
    def bound(self) -> int:
        """Admitted at most requeue_limit + 1 times, each up to the timeout, with the
        requeue delays between."""
        base, cap = KUEUE_REQUEUE_BACKOFF
        waits = sum(min(base * 2**n, cap) * (1 + KUEUE_JITTER) for n in range(self.requeue_limit))
        return ceil((self.requeue_limit + 1) * self.timeout + waits)


@dataclass(frozen=True)
class Ending:
    """What ends the job when one role's preflight fails."""

    role: str
    seconds: int | None
    """At most this long from the first failure; ``None``: never."""
    how: str
    kept: bool
    """The failure's line stays where ``trainstack status`` reads it after the end."""
    by_kueue: bool = False
    """Kueue ends it, when its own way does not within one admission."""

    @property
    def fix(self) -> str:
        """How to bound a job nothing ends ("" when something does)."""
        if self.seconds is not None:
            return ""
        return FIX_WAITING if self.how.endswith(WAITING) else FIX_RETRIED


@dataclass(frozen=True)
class _Role:
    name: str
    restart: str
    run: RoleRun
    wait: int
    """Seconds one run of its checks may take: the wait for the workers' names."""


def backoffs(count: int, first_cap: tuple[int, int]) -> int:
    """The sum of ``count`` doubling delays from ``first`` capped at ``cap``."""
    first, cap = first_cap
    return sum(min(first * 2**n, cap) for n in range(count))


def endings(obj: Mapping[str, Any], facts: FailureFacts, kueue: Kueue | None) -> list[Ending]:
    """Per role of the rendered job ``obj``, what a failed preflight leads to."""
    spec = obj.get("spec") or {}
    policy = spec.get("runPolicy") or spec
    roles = _roles(spec, facts)
    by_name = {role.name: role for role in roles}
    return [_ending(role, by_name.get("launcher"), spec, policy, facts, kueue) for role in roles]


def _ending(
    role: _Role,
    launcher: _Role | None,
    spec: Mapping[str, Any],
    policy: Mapping[str, Any],
    facts: FailureFacts,
    kueue: Kueue | None,
) -> Ending:
    seconds, how, kept = _capped(role, role is launcher, policy, facts)
    if launcher is not None and role is not launcher and seconds is None:
        seconds, how, kept = _through_launcher(role, launcher, spec, policy, facts, kueue, how)
    if kueue is not None and (seconds is None or seconds > kueue.timeout):
        # Kueue evicts it first: admitted at most requeue_limit + 1 times, it ends then at
        # the latest, when its own way does not end it during one admission
        suspended = role.restart == "Never" and (
            role.run == "job" or str(policy.get("cleanPodPolicy")) in facts.kept_when_suspended
        )
        kept = suspended and (seconds is None or kept)
        return Ending(role.name, kueue.bound, how, kept, by_kueue=True)
    return Ending(role.name, seconds, how, kept)


def _capped(
    role: _Role, is_launcher: bool, policy: Mapping[str, Any], facts: FailureFacts
) -> tuple[int | None, str, bool]:
    """The role's own end, within the job's activeDeadlineSeconds where it bounds the role."""
    seconds, how, kept = _own(role, policy, facts)
    deadline = policy.get("activeDeadlineSeconds")
    applies = facts.deadline == "job" or (facts.deadline == "launcher" and is_launcher)
    if isinstance(deadline, int) and applies and (seconds is None or deadline < seconds):
        seconds, how = deadline, f"{how}; activeDeadlineSeconds {deadline} fails it"
        # the job's end deletes the pods that are still retrying
        kept = kept and role.restart == "Never"
    return seconds, how, kept


def _own(
    role: _Role, policy: Mapping[str, Any], facts: FailureFacts
) -> tuple[int | None, str, bool]:
    """What the role's own pods do: (bound, how, line kept)."""
    limit = policy.get("backoffLimit")
    limit = limit if isinstance(limit, int) else facts.backoff_default
    cleaned = str(policy.get("cleanPodPolicy"))
    if role.run == "statefulset":
        return None, "retried forever by its StatefulSet", False
    if role.run == "job" or (role.restart in _RETRIED and facts.pending_restarts_counted):
        if limit is None:
            return None, f"retried in place ({role.restart}) without a backoffLimit", False
        if role.restart == "Never":
            bound = backoffs(limit, JOB_POD_BACKOFF) + (limit + 1) * role.wait
            return bound, f"{_pods(limit + 1)} (backoffLimit {limit})", True
        restarts = max(limit, 1)
        bound = backoffs(restarts, KUBELET_BACKOFF) + (restarts + 1) * role.wait
        why = f"{_restarts(restarts)} reach backoffLimit {limit}, then its pod is deleted"
        return bound, why, False
    if role.restart == "Never":
        if facts.never_fails_job:
            return role.wait, "its failed pod fails the job", cleaned in facts.kept
        return None, "its failed pod stays, the job waits", cleaned in facts.kept
    return None, f"retried in place ({role.restart}), restarts before Running not counted", False


def _through_launcher(
    role: _Role,
    launcher: _Role,
    spec: Mapping[str, Any],
    policy: Mapping[str, Any],
    facts: FailureFacts,
    kueue: Kueue | None,
    how: str,
) -> tuple[int | None, str, bool]:
    """A worker whose failure does not end the job: its launcher does, when it runs."""
    if role.run == "statefulset":
        # the chart's workers only report, become Ready, and the launcher fails on it
        seconds, _, kept = _own(
            _Role(launcher.name, launcher.restart, launcher.run, 0), policy, facts
        )
        return seconds, "it reports; the launcher fails with its line", kept
    creation = spec.get("launcherCreationPolicy", "AtStartup")
    waits = facts.launcher_waits == "always" or (
        facts.launcher_waits == "launcherCreationPolicy"
        and creation == "WaitForWorkersReady"
        and kueue is None  # a job created suspended gets its launcher at once
    )
    if waits:
        return None, f"{how}; {WAITING}", False
    seconds, launcher_how, _ = _capped(launcher, True, policy, facts)
    if seconds is None:
        return None, f"{how}; the launcher never fails ({launcher_how})", False
    kept = role.restart == "Never" and str(policy.get("cleanPodPolicy")) in facts.kept
    return seconds, f"the launcher cannot resolve it: {launcher_how}", kept


def _pods(count: int) -> str:
    return "its pod fails" if count == 1 else f"{count} pods fail, one after another"


def _restarts(count: int) -> str:
    return "1 restart" if count == 1 else f"{count} restarts"


def _roles(spec: Mapping[str, Any], facts: FailureFacts) -> list[_Role]:
    """The rendered roles: replica specs, else one template (MPIJob v1alpha1), else the
    runtime's (a TrainJob)."""
    found = []
    replicas = next(
        (v for k, v in spec.items() if k.endswith("ReplicaSpecs") and isinstance(v, Mapping)),
        None,
    )
    if replicas is not None:
        for replica_type, replica in sorted(replicas.items()):
            template = (replica.get("template") or {}).get("spec") or {}
            restart = replica.get("restartPolicy") or facts.default_restart
            found.append(_role(replica_type.lower(), restart, template, facts))
    elif isinstance(spec.get("template"), Mapping):
        template = spec["template"].get("spec") or {}
        restart = template.get("restartPolicy") or facts.default_restart
        found.append(_role("launcher", restart, template, facts))
        found.append(_role("worker", "Always", template, facts))
    else:
        found.append(_role("trainer", facts.default_restart, {}, facts))
    return found


def _role(name: str, restart: str, template: Mapping[str, Any], facts: FailureFacts) -> _Role:
    run = facts.runs.get(name, facts.runs["*"])
    return _Role(name, restart, run, _wait(template) if name == "launcher" else 0)


def _wait(template: Mapping[str, Any]) -> int:
    """How long the launcher's preflight waits for its workers' names, as rendered."""
    for container in template.get("initContainers") or []:
        for item in container.get("env") or []:
            if item.get("name") == "TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS":
                value = str(item.get("value", "0"))
                return int(value) if value.isdigit() else 0
    return 0
