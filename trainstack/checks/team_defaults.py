"""Does a team's job set what its team's ResourceQuota requires, and fit its limits?

A ResourceQuota that caps an amount makes the API server refuse pods that do not set
it; the team's LimitRange defaults fill in what the pods leave out. What neither sets, a
default limit below the pod's own request, and a /dev/shm as large as the memory limit
are found here.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.effective_resources import ARENA_CHART, effective_resources
from trainstack.checks.findings import Finding
from trainstack.checks.team_jobs import TeamJob, team_jobs
from trainstack.config.stack import StackConfig
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework


def team_default_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for amounts nothing sets, defaults too low, or a CPU limit an arenaSubmit job
    did not have; warnings for /dev/shm."""
    return [
        found
        for job in team_jobs(experiments, config, source)
        for found in [*_unset_amounts(job), *_shared_memory(job), *_arena_cpu_limit(job)]
    ]


def _unset_amounts(team_job: TeamJob) -> list[Finding]:
    """Amounts the ResourceQuota requires that neither the pod nor the team sets."""
    team = team_job.team
    defaults = team.container_defaults
    findings = []
    for role in team_job.roles:
        for kind, resource in (
            ("requests", "cpu"),
            ("requests", "memory"),
            ("limits", "memory"),
        ):
            found = (
                team_job.request(role, resource)
                if kind == "requests"
                else team_job.limit(role, resource)
            )
            if found is None:
                findings.append(
                    team_job.finding(
                        f"{role.key}.resources.{kind}.{resource}",
                        f"unset on {role.role} pods, and team {team.name} has no "
                        f"default ({team_job.where(f'containerDefaults.{kind}.{resource}')}): "
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
                    team_job.finding(
                        f"{role.key}.resources.limits.{resource}",
                        f"unset on {role.role} pods, so team {team.name}'s default "
                        f"limit {getattr(defaults.limits, resource)} applies "
                        f"({team_job.where(f'containerDefaults.limits.{resource}')}), below "
                        f"the request {request}: the API server refuses the pods; set a "
                        "limit",
                    )
                )
    return findings


def _shared_memory(team_job: TeamJob) -> list[Finding]:
    """/dev/shm is memory of the pod: it must fit under the pod's memory limit."""
    job = team_job.experiment.job
    shm = job.shm
    if not shm.enabled or shm.size_limit is None:
        return []
    size = parse_quantity(shm.size_limit)
    spec = framework(job.framework)
    findings = []
    for role in team_job.roles:
        limit = team_job.limit(role, "memory")
        if not spec.role(role.role).trains or limit is None or size < limit:
            continue
        findings.append(
            team_job.finding(
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


def _arena_cpu_limit(team_job: TeamJob) -> list[Finding]:
    """An arenaSubmit job gets what Arena's chart gave it: no CPU limit it did not ask for.
    A team's default CPU limit would throttle its training pods (the input pipeline of
    workload 1's ResNet-50); its ResourceQuota needs none (memory limits it does)."""
    job = team_job.experiment.job
    if not job.arena_submit:
        return []
    spec = framework(job.framework)
    findings = []
    for role in effective_resources(job, team_job.team):
        if not spec.role(role.role).trains or "cpu" not in role.added_limits():
            continue
        default = team_job.team.container_defaults.limits.cpu
        findings.append(
            team_job.finding(
                f"{role.key}.resources.limits.cpu",
                f"unset on {role.role} pods, so team {team_job.team.name}'s default CPU limit "
                f"{default} applies ({team_job.where('containerDefaults.limits.cpu')}): "
                f"arenaSubmit renders what arena submit did, and Arena's chart sets no CPU "
                f"limit on a job that asks for none ({ARENA_CHART}); a limit throttles its "
                "training processes. Drop the team's default CPU limit, or set the role's "
                "(arena submit's --cpu)",
            )
        )
    return findings
