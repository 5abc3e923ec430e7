"""One experiment of one team: what the team checks share.

The checks of :mod:`~trainstack.checks.pod_security`, :mod:`~trainstack.checks.team_defaults`,
:mod:`~trainstack.checks.queueing` and :mod:`~trainstack.checks.quotas` look at the experiments
that run in a team's namespace, count their pods as the API server does, and name the
team's keys in the stack file.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.findings import Finding, Severity
from trainstack.checks.pods import RolePods, role_pods
from trainstack.config.stack import StackConfig
from trainstack.config.teams import Team
from trainstack.core.quantity import parse_quantity
from trainstack.experiments.resolve import Experiment


@dataclass(frozen=True)
class TeamJob:
    """An experiment that runs in a team's namespace, and how messages name the team."""

    experiment: Experiment
    team: Team
    team_key: str
    """The team's key in the stack file: ``trainstack:teams[0]``."""
    source: str
    """The stack file, as messages name it."""

    @functools.cached_property
    def roles(self) -> list[RolePods]:
        """The job's roles that start at least one pod."""
        return role_pods(self.experiment.job)

    def finding(
        self, key: str, message: str, severity: Severity = "error", check: str = ""
    ) -> Finding:
        """A finding of the experiment at its ``key``."""
        return Finding(
            self.experiment.source, self.experiment.release_name, key, message, severity, check
        )

    def where(self, key: str) -> str:
        """The team's ``key`` in the stack file: ``trainstack:teams[0].quota.gpu in <file>``."""
        return f"{self.team_key}.{key} in {self.source}"

    def request(self, role: RolePods, resource: str) -> Decimal | None:
        """The request the API server sees: set, else the set limit, else the team default."""
        value = getattr(role.resources.requests, resource) or getattr(
            role.resources.limits, resource
        )
        if value is not None:
            return parse_quantity(value)
        return self.team.container_defaults.request(resource)

    def limit(self, role: RolePods, resource: str) -> Decimal | None:
        """The limit the API server sees: set, else the team default."""
        value = getattr(role.resources.limits, resource)
        if value is not None:
            return parse_quantity(value)
        return self.team.container_defaults.limit(resource)


def team_jobs(experiments: Sequence[Experiment], config: StackConfig, source: str) -> list[TeamJob]:
    """The experiments that run in a team's namespace, in their order, each with its team."""
    found = []
    for experiment in experiments:
        team = None if experiment.team is None else config.team(experiment.team)
        if team is not None:
            team_key = f"trainstack:{config.team_key(team)}"
            found.append(TeamJob(experiment, team, team_key, source))
    return found
