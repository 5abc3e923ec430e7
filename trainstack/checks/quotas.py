"""Does a team's work fit its quota? Per job and all together.

The numbers are the ones the API server counts: a container's request is what it sets,
else its limit, else the team's LimitRange default; its limit is what it sets, else the
default. ``pulumi up`` creates every experiment of a stack at once, so without queueing
the experiments of one team share its ResourceQuota at the same time; with queueing Kueue
admits queued jobs one after another as quota frees up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.enforcement import Enforcement, enforcement
from trainstack.checks.findings import Finding
from trainstack.checks.pods import RolePods
from trainstack.checks.team_jobs import TeamJob, team_jobs
from trainstack.config.stack import StackConfig
from trainstack.config.teams import Amounts, Team
from trainstack.core.quantity import format_quantity
from trainstack.experiments.resolve import Experiment

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


def quota_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors and warnings about the quota of the experiments that run in a team's namespace."""
    findings: list[Finding] = []
    per_team: dict[str, list[tuple[Experiment, Usage]]] = defaultdict(list)
    enforced = enforcement(config, experiments)
    for job in team_jobs(experiments, config, source):
        used = usage(job)
        findings += _fits(job, used, enforced[job.team.name], config)
        per_team[job.team.name].append((job.experiment, used))
    for name, members in sorted(per_team.items()):
        team = config.team(name)
        assert team is not None
        findings += _together(team, members, config, source, enforced[name])
    return findings


def usage(team_job: TeamJob) -> Usage:
    """The job's pods, as the team's ResourceQuota counts them (unset amounts as 0)."""
    total = _NONE
    for role in team_job.roles:
        pod = Usage(
            role.gpus,
            team_job.request(role, "cpu") or Decimal(0),
            team_job.request(role, "memory") or Decimal(0),
            team_job.limit(role, "memory") or Decimal(0),
            1,
        )
        total = total + pod.times(role.replicas)
    return total


def _fits(
    team_job: TeamJob, usage: Usage, enforced: Enforcement, config: StackConfig
) -> list[Finding]:
    """One job against the team's ResourceQuota (and, queued, its nominal quota)."""
    experiment, team = team_job.experiment, team_job.team
    ceiling, share = enforced.ceiling, enforced.share
    borrowing = enforced.raised
    key = "team"
    findings = []
    over = [
        (resource, resource.used(usage), allowed)
        for resource in RESOURCES
        if (allowed := resource.allowed(ceiling)) is not None and resource.used(usage) > allowed
    ]
    if over:
        # One problem (the job does not fit), one line: every resource it is over in it.
        cap = "can hold at most" if borrowing else "has a quota of"
        keys = dict.fromkeys(f"{team_job.team_key}.{r.quota_key}" for r, _, _ in over)
        findings.append(
            team_job.finding(
                key,
                f"the job needs {_and(r.show(used) for r, used, _ in over)} "
                f"({_breakdown(team_job.roles)}), but team {team.name} {cap} "
                f"{_and(r.show(allowed) for r, _, allowed in over)} "
                f"({', '.join(keys)} in {team_job.source}"
                f"{', with what it may borrow' if borrowing else ''}): "
                + (
                    "Kueue never admits it"
                    if experiment.queued
                    else "its ResourceQuota refuses the pods beyond that"
                )
                + f"; ask for at most {_and(r.show(allowed) for r, _, allowed in over)} "
                f"(fewer replicas, or less per pod), or raise the team's "
                f"{_and(dict.fromkeys(r.quota_key for r, _, _ in over))}"
                + (" or borrowingLimit" if borrowing else ""),
            )
        )
    for resource in RESOURCES:
        if any(resource is r for r, _, _ in over):
            continue
        used = resource.used(usage)
        mine = resource.allowed(share)
        if experiment.queued and borrowing and mine is not None and used > mine:
            findings.append(
                team_job.finding(
                    key,
                    f"the job needs {resource.show(used)}, above team {team.name}'s "
                    f"own {resource.show(mine)} ({team_job.where(resource.quota_key)}): "
                    f"Kueue admits it only while other teams of cohort "
                    f"{config.queueing.cohort} leave {resource.show(used - mine)} idle",
                    "warning",
                    "borrowing",
                )
            )
    return findings


def _and(parts: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    listed = list(parts)
    return listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"


def _together(
    team: Team,
    members: list[tuple[Experiment, Usage]],
    config: StackConfig,
    source: str,
    enforced: Enforcement,
) -> list[Finding]:
    """The team's experiments side by side: created at once, or queued one after another."""
    team_key = f"trainstack:{config.team_key(team)}"
    subject = f"(all of team {team.name})"
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
        f"{experiment.release_name} {resource.show(resource.used(usage)).split(' ')[0]}"
        for experiment, usage in members[:_LISTED]
    ]
    if len(members) > _LISTED:
        shown.append(f"and {len(members) - _LISTED} more")
    return ", ".join(shown)
