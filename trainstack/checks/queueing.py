"""What Kueue cannot do for a team's job on a stack with queueing.

A job is queued when its team has a queue and the operator serving its kind can suspend
it; otherwise it starts at ``pulumi up``, outside the queue. A queued job can still ask
for a resource its ClusterQueue does not cover. (Releases that do not work with the
stack's Kueue are refused with the stack: ``trainstack/operators/compatibility.py``.)
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.checks.quotas import usage
from trainstack.checks.team_jobs import TeamJob, team_jobs
from trainstack.config.node_pool import GPU_RESOURCE
from trainstack.config.stack import StackConfig
from trainstack.experiments.dialect import serve_with
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework


def queueing_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Warnings for jobs Kueue cannot hold; errors for jobs it never admits."""
    if not config.queueing.enabled:
        return []
    return [
        found for job in team_jobs(experiments, config, source) for found in _queueing(job, config)
    ]


def _queueing(team_job: TeamJob, config: StackConfig) -> list[Finding]:
    """What Kueue cannot do for this job."""
    experiment, team = team_job.experiment, team_job.team
    job = experiment.job
    if not experiment.queued:
        crd = framework(job.framework).crd
        serving = config.operators.serving(crd)
        who = serving[0].label if serving else "no enabled operator"
        fix = serve_with(crd, serving[0] if serving else None, suspend=True)
        return [
            team_job.finding(
                "job.framework",
                f"not queued: {who} serves {crd} without runPolicy.suspend, so Kueue "
                "cannot hold the job; it starts at `pulumi up`, outside team "
                f"{team.name}'s queue, and Kueue does not count its "
                f"{usage(team_job).gpu} GPU(s); {fix} to queue it",
                "warning",
                "notQueued",
            )
        ]
    if job.network.rdma.enabled:
        return [
            team_job.finding(
                "job.network.rdma.enabled",
                f"training pods request {job.network.rdma.resource_name}, which team "
                f"{team.name}'s ClusterQueue does not cover (it covers cpu, memory "
                f"and {GPU_RESOURCE}): Kueue never admits the job",
            )
        ]
    return []
