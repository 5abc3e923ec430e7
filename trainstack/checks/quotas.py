"""Does a team's work fit its quota and its Pod Security level? Per job and all together.

The numbers are the ones the API server counts: a container's request is what it sets,
else its limit, else the team's LimitRange default; its limit is what it sets, else the
default. ``pulumi up`` creates every experiment of a stack at once, so without queueing
the experiments of one team share its ResourceQuota at the same time; with queueing Kueue
admits queued jobs one after another as quota frees up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.enforcement import Enforcement, enforcement
from trainstack.checks.findings import Finding, Severity
from trainstack.checks.pods import RolePods, role_pods
from trainstack.config.loader import LoadedStack
from trainstack.config.node_pool import GPU_RESOURCE
from trainstack.config.teams import Amounts, Team
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.experiments import Experiment, serve_with
from trainstack.training_job.frameworks import framework

# Capabilities Pod Security `baseline` lets a container add (its "Capabilities" control).
BASELINE_CAPABILITIES = frozenset(
    {
        "AUDIT_WRITE",
        "CHOWN",
        "DAC_OVERRIDE",
        "FOWNER",
        "FSETID",
        "KILL",
        "MKNOD",
        "NET_BIND_SERVICE",
        "SETFCAP",
        "SETGID",
        "SETPCAP",
        "SETUID",
        "SYS_CHROOT",
    }
)
_LISTED = 8
"""Experiments named in a message about a team's sums; the rest are counted."""


@dataclass(frozen=True)
class Usage:
    """What a job's pods hold at once, as the ResourceQuota counts it."""

    gpu: int
    cpu: Decimal
    memory: Decimal
    memory_limit: Decimal
    pods: int

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.gpu + other.gpu,
            self.cpu + other.cpu,
            self.memory + other.memory,
            self.memory_limit + other.memory_limit,
            self.pods + other.pods,
        )

    def times(self, count: int) -> Usage:
        """``count`` pods like this one."""
        return Usage(
            self.gpu * count,
            self.cpu * count,
            self.memory * count,
            self.memory_limit * count,
            self.pods * count,
        )


_NONE = Usage(0, Decimal(0), Decimal(0), Decimal(0), 0)


@dataclass(frozen=True)
class _Resource:
    """One quota line: how to read it from usage and quota, and how to say it."""

    label: str
    quota_key: str
    binary: bool | None
    """None: a count (GPUs, pods); otherwise how to format the quantity."""

    def used(self, usage: Usage) -> Decimal:
        value: dict[str, int | Decimal] = {
            "gpu": usage.gpu,
            "cpu": usage.cpu,
            "memory": usage.memory,
            "memory limits": usage.memory_limit,
            "pods": usage.pods,
        }
        return Decimal(value[self.label])

    def allowed(self, amounts: Amounts) -> Decimal | None:
        value: dict[str, int | Decimal | None] = {
            "gpu": amounts.gpu,
            "cpu": amounts.cpu,
            "memory": amounts.memory,
            "memory limits": amounts.memory,
            "pods": amounts.pods,
        }
        found = value[self.label]
        return None if found is None else Decimal(found)

    def show(self, value: Decimal) -> str:
        if self.binary is None:
            noun = "GPUs" if self.label == "gpu" else "pods"
            return f"{value} {noun}"
        return f"{format_quantity(value, self.binary)} {self.label}"


RESOURCES = (
    _Resource("gpu", "quota.gpu", None),
    _Resource("cpu", "quota.cpu", False),
    _Resource("memory", "quota.memory", True),
    _Resource("memory limits", "quota.memory", True),
    _Resource("pods", "quota.pods", None),
)


def quota_findings(experiments: list[Experiment], stack: LoadedStack) -> list[Finding]:
    """Errors and warnings about the experiments that run in a team's namespace."""
    findings: list[Finding] = []
    per_team: dict[str, list[tuple[Experiment, Usage]]] = defaultdict(list)
    enforced = enforcement(stack.config, experiments)
    for experiment in experiments:
        team = None if experiment.team is None else stack.config.team(experiment.team)
        if team is None:
            continue
        check = _TeamCheck(experiment, team, stack, enforced[team.name])
        findings += check.pod_security()
        findings += check.unset_amounts()
        findings += check.shared_memory()
        findings += check.queueing()
        usage = check.usage()
        findings += check.fits(usage)
        per_team[team.name].append((experiment, usage))
    for name, members in sorted(per_team.items()):
        team = stack.config.team(name)
        assert team is not None
        findings += _together(team, members, stack, enforced[name])
    return findings


class _TeamCheck:
    """The checks of one experiment of one team."""

    def __init__(
        self, experiment: Experiment, team: Team, stack: LoadedStack, enforced: Enforcement
    ) -> None:
        self.experiment = experiment
        self.team = team
        self.stack = stack
        self.enforced = enforced
        self.team_key = f"trainstack:{stack.config.team_key(team)}"
        self.roles = role_pods(experiment.job)

    def finding(
        self, key: str, message: str, severity: Severity = "error", check: str = ""
    ) -> Finding:
        return Finding(self.experiment.source, self.experiment.name, key, message, severity, check)

    def where(self, key: str) -> str:
        return f"{self.team_key}.{key} in {self.stack.source}"

    def pod_security(self) -> list[Finding]:
        """Pod Security `baseline` refuses what the job asks for (at run time, pod by pod)."""
        if self.team.pod_security == "privileged":
            return []
        job = self.experiment.job
        asked: list[tuple[str, str]] = []
        if job.network.host_network:
            asked.append(("job.network.hostNetwork", "true (host networking)"))
        if job.security.privileged:
            asked.append(("job.security.privileged", "true (privileged containers)"))
        if job.security.host_ipc:
            asked.append(("job.security.hostIPC", "true (the node's IPC namespace)"))
        if job.security.host_pid:
            asked.append(("job.security.hostPID", "true (the node's processes)"))
        if job.host_paths:
            paths = ", ".join(h.path for h in job.host_paths)
            asked.append(("job.hostPaths", f"{paths} (hostPath volumes)"))
        if job.network.rdma.enabled and not job.security.privileged:
            asked.append(("job.network.rdma.enabled", "true (adds the IPC_LOCK capability)"))
        spec = framework(job.framework)
        added = {"job.security.capabilities.add": job.security.capabilities.add}
        for pods in self.roles:
            role = spec.role(pods.role)
            adds = spec.role_settings(job, role.name).security.capabilities.add
            if adds is not None:
                added[f"job.{role.values_key}.security.capabilities.add"] = adds
        for key, adds in added.items():
            extra = sorted(set(adds) - BASELINE_CAPABILITIES)
            if extra and not job.security.privileged:
                asked.append((key, f"{', '.join(extra)}"))
        if job.security.seccomp_profile == "Unconfined" and not job.security.privileged:
            asked.append(("job.security.seccompProfile", "Unconfined"))
        return [
            self.finding(
                key,
                f"{found}, but team {self.team.name}'s namespace {self.experiment.namespace} "
                f"enforces Pod Security baseline ({self.where('podSecurity')}): the API "
                "server refuses these pods when the operator creates them; drop it, or let "
                "the team run such pods with podSecurity: privileged",
            )
            for key, found in asked
        ]

    def unset_amounts(self) -> list[Finding]:
        """Amounts the ResourceQuota requires that neither the pod nor the team sets."""
        defaults = self.team.container_defaults
        findings = []
        for role in self.roles:
            for kind, resource in (
                ("requests", "cpu"),
                ("requests", "memory"),
                ("limits", "memory"),
            ):
                found = (
                    _request(role, resource, self.team)
                    if kind == "requests"
                    else _limit(role, resource, self.team)
                )
                if found is None:
                    findings.append(
                        self.finding(
                            f"{role.key}.resources.{kind}.{resource}",
                            f"unset on {role.role} pods, and team {self.team.name} has no "
                            f"default ({self.where(f'containerDefaults.{kind}.{resource}')}): "
                            f"its ResourceQuota caps {kind}.{resource}, so the API server "
                            "refuses pods without it; set it, or give the team a default",
                        )
                    )
            for resource in ("cpu", "memory"):
                request = getattr(role.resources.requests, resource)
                default = defaults.limit(resource)
                if (
                    request is not None
                    and getattr(role.resources.limits, resource) is None
                    and default is not None
                    and parse_quantity(request) > default
                ):
                    findings.append(
                        self.finding(
                            f"{role.key}.resources.limits.{resource}",
                            f"unset on {role.role} pods, so team {self.team.name}'s default "
                            f"limit {getattr(defaults.limits, resource)} applies "
                            f"({self.where(f'containerDefaults.limits.{resource}')}), below "
                            f"the request {request}: the API server refuses the pods; set a "
                            "limit",
                        )
                    )
        return findings

    def shared_memory(self) -> list[Finding]:
        """/dev/shm is memory of the pod: it must fit under the pod's memory limit."""
        job = self.experiment.job
        shm = job.shm
        if not shm.enabled or shm.size_limit is None:
            return []
        size = parse_quantity(shm.size_limit)
        spec = framework(job.framework)
        findings = []
        for role in self.roles:
            limit = _limit(role, "memory", self.team)
            if not spec.role(role.role).trains or limit is None or size < limit:
                continue
            findings.append(
                self.finding(
                    "job.shm.sizeLimit",
                    f"{shm.size_limit} of /dev/shm is memory charged to each {role.role} pod, "
                    f"whose memory limit is {format_quantity(limit)}: the pod is OOM-killed "
                    "before /dev/shm is full; raise the limit above sizeLimit plus what the "
                    "process needs",
                    "warning",
                    "shmOverMemory",
                )
            )
        return findings

    def queueing(self) -> list[Finding]:
        """What Kueue cannot do for this job."""
        queueing = self.stack.config.queueing
        job = self.experiment.job
        if not queueing.enabled:
            return []
        if not self.experiment.queued:
            crd = framework(job.framework).crd
            serving = self.stack.config.operators.serving(crd)
            who = serving[0].label if serving else "no enabled operator"
            fix = serve_with(crd, serving[0] if serving else None, suspend=True)
            return [
                self.finding(
                    "job.framework",
                    f"not queued: {who} serves {crd} without runPolicy.suspend, so Kueue "
                    "cannot hold the job; it starts at `pulumi up`, outside team "
                    f"{self.team.name}'s queue, and Kueue does not count its "
                    f"{self.usage().gpu} GPU(s); {fix} to queue it",
                    "warning",
                    "notQueued",
                )
            ]
        caveat = self._queue_caveat()
        if caveat:
            return [self.finding("job.framework", caveat, "warning", "queueCaveat")]
        if job.network.rdma.enabled:
            return [
                self.finding(
                    "job.network.rdma.enabled",
                    f"training pods request {job.network.rdma.resource_name}, which team "
                    f"{self.team.name}'s ClusterQueue does not cover (it covers cpu, memory "
                    f"and {GPU_RESOURCE}): Kueue never admits the job",
                )
            ]
        return []

    def _queue_caveat(self) -> str | None:
        """A known defect of the serving operator under Kueue, for a queued job."""
        serving = self.stack.config.operators.serving(framework(self.experiment.job.framework).crd)
        if serving is None or serving[1].queue_caveat is None:
            return None
        return f"queued with {serving[0].label}: {serving[1].queue_caveat}"

    def usage(self) -> Usage:
        """The job's pods, as the team's ResourceQuota counts them (unset amounts as 0)."""
        total = _NONE
        for role in self.roles:
            pod = Usage(
                role.gpus,
                _request(role, "cpu", self.team) or Decimal(0),
                _request(role, "memory", self.team) or Decimal(0),
                _limit(role, "memory", self.team) or Decimal(0),
                1,
            )
            total = total + pod.times(role.replicas)
        return total

    def fits(self, usage: Usage) -> list[Finding]:
        """One job against the team's ResourceQuota (and, queued, its nominal quota)."""
        config = self.stack.config
        ceiling, share = self.enforced.ceiling, self.enforced.share
        borrowing = self.enforced.raised
        key = "team"
        findings = []
        for resource in RESOURCES:
            used, allowed = resource.used(usage), resource.allowed(ceiling)
            if allowed is not None and used > allowed:
                cap = "can hold at most" if borrowing else "has a quota of"
                findings.append(
                    self.finding(
                        key,
                        f"the job needs {resource.show(used)} ({_breakdown(self.roles)}), but "
                        f"team {self.team.name} {cap} {resource.show(allowed)} "
                        f"({self.where(resource.quota_key)}"
                        f"{', with what it may borrow' if borrowing else ''}): "
                        + (
                            "Kueue never admits it"
                            if self.experiment.queued
                            else "its ResourceQuota refuses the pods beyond that"
                        ),
                    )
                )
                continue
            mine = resource.allowed(share)
            if self.experiment.queued and borrowing and mine is not None and used > mine:
                findings.append(
                    self.finding(
                        key,
                        f"the job needs {resource.show(used)}, above team {self.team.name}'s "
                        f"own {resource.show(mine)} ({self.where(resource.quota_key)}): "
                        f"Kueue admits it only while other teams of cohort "
                        f"{config.queueing.cohort} leave {resource.show(used - mine)} idle",
                        "warning",
                        "borrowing",
                    )
                )
        return findings


def _together(
    team: Team, members: list[tuple[Experiment, Usage]], stack: LoadedStack, enforced: Enforcement
) -> list[Finding]:
    """The team's experiments side by side: created at once, or queued one after another."""
    config = stack.config
    team_key = f"trainstack:{config.team_key(team)}"
    source, subject = stack.source, f"(all of team {team.name})"
    at_once = [(e, u) for e, u in members if not e.queued]
    queued = [(e, u) for e, u in members if e.queued]
    findings = []
    if len(at_once) > 1:
        for resource, used, allowed in _exceeded(at_once, enforced.ceiling, RESOURCES):
            findings.append(
                Finding(
                    source,
                    subject,
                    f"{team_key}.{resource.quota_key}",
                    f"`pulumi up` creates {len(at_once)} experiments of team {team.name} at "
                    f"once and they need {resource.show(used)} together "
                    f"({_listing(at_once, resource)}), above the {resource.show(allowed)} "
                    "its ResourceQuota allows: pods beyond it are refused and jobs start "
                    "half-way, holding GPUs they cannot use; run fewer at once, or enable "
                    "trainstack:queueing",
                )
            )
    if queued and len(members) > 1:
        # Kueue counts requests only: GPUs, CPU and memory.
        share = enforced.share
        for resource, used, allowed in _exceeded(members, share, RESOURCES[:3]):
            findings.append(
                Finding(
                    source,
                    subject,
                    f"{team_key}.{resource.quota_key}",
                    f"the {len(members)} experiments of team {team.name} need "
                    f"{resource.show(used)} together ({_listing(members, resource)}), above "
                    f"its {resource.show(allowed)}: Kueue admits each of the {len(queued)} "
                    "queued one(s) whole when quota frees up, so they run one after another, "
                    "not side by side",
                    "warning",
                    "queuedTogether",
                )
            )
    return findings


def _exceeded(
    members: list[tuple[Experiment, Usage]], amounts: Amounts, resources: Iterable[_Resource]
) -> list[tuple[_Resource, Decimal, Decimal]]:
    """(resource, used, allowed) for each resource the members together use too much of."""
    total = _sum(usage for _, usage in members)
    over = []
    for resource in resources:
        allowed = resource.allowed(amounts)
        if allowed is not None and resource.used(total) > allowed:
            over.append((resource, resource.used(total), allowed))
    return over


def _request(role: RolePods, resource: str, team: Team) -> Decimal | None:
    """The request the API server sees: set, else the set limit, else the team default."""
    value = getattr(role.resources.requests, resource) or getattr(role.resources.limits, resource)
    if value is not None:
        return parse_quantity(value)
    return team.container_defaults.request(resource)


def _limit(role: RolePods, resource: str, team: Team) -> Decimal | None:
    value = getattr(role.resources.limits, resource)
    if value is not None:
        return parse_quantity(value)
    return team.container_defaults.limit(resource)


def _sum(usages: Iterable[Usage]) -> Usage:
    total = _NONE
    for usage in usages:
        total = total + usage
    return total


def _breakdown(roles: list[RolePods]) -> str:
    return " + ".join(
        f"{role.replicas} {role.role}" + (f" x {role.gpus} GPUs" if role.gpus else "")
        for role in roles
    )


def _listing(members: list[tuple[Experiment, Usage]], resource: _Resource) -> str:
    shown = [
        f"{experiment.name} {resource.show(resource.used(usage)).split(' ')[0]}"
        for experiment, usage in members[:_LISTED]
    ]
    if len(members) > _LISTED:
        shown.append(f"and {len(members) - _LISTED} more")
    return ", ".join(shown)
