"""Does a team's job pass its namespace's Pod Security level?

A team's namespace enforces Pod Security ``baseline`` unless the team may run privileged
pods; the API server then refuses, pod by pod and only at run time, what the job asks
for beyond it. The plan says so first.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.checks.team_jobs import TeamJob, team_jobs
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment
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


def pod_security_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for what Pod Security ``baseline`` refuses in a team's namespace."""
    return [
        found
        for job in team_jobs(experiments, config, source)
        if job.team.pod_security != "privileged"
        for found in _refused(job)
    ]


def _refused(team_job: TeamJob) -> list[Finding]:
    """Pod Security `baseline` refuses what the job asks for (at run time, pod by pod)."""
    job = team_job.experiment.job
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
    for pods in team_job.roles:
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
    team = team_job.team
    return [
        team_job.finding(
            key,
            f"{found}, but team {team.name}'s namespace {team_job.experiment.namespace} "
            f"enforces Pod Security baseline ({team_job.where('podSecurity')}): the API "
            "server refuses these pods when the operator creates them; drop it, or let "
            "the team run such pods with podSecurity: privileged",
        )
        for key, found in asked
    ]
