"""An experiment's team: the namespace it runs in, and whether Kueue queues its job."""

from __future__ import annotations

from typing import Any

from trainstack.config.queueing import QUEUE_LABEL, suspendable
from trainstack.config.stack import StackConfig
from trainstack.experiments.model import ExperimentFile
from trainstack.training_job import TrainingJob


def namespace_and_team(spec: ExperimentFile, config: StackConfig) -> tuple[str, str | None]:
    """The experiment's namespace and team (a namespace of a team puts it in that team)."""
    if spec.team is not None:
        team = config.team(spec.team)
        assert team is not None  # select._check_teams refused unknown teams
        return team.namespace_name, team.name
    namespace = spec.namespace or "default"
    team = config.team_in(namespace)
    return namespace, None if team is None else team.name


def queueable(job: dict[str, Any], team: str | None, config: StackConfig) -> bool:
    """Whether Kueue holds the job: queueing is on, it has a team, its operator can suspend."""
    if team is None or not config.queueing.enabled:
        return False
    framework = job.get("framework") or TrainingJob.model_fields["framework"].default
    return suspendable(framework, config.operators)


def with_queue(job: dict[str, Any], team: str) -> dict[str, Any]:
    """The job labelled with its team's LocalQueue (named after the team)."""
    labels = dict(job.get("labels") or {})
    labels.setdefault(QUEUE_LABEL, team)
    return {**job, "labels": labels}
