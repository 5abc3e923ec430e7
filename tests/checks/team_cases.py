"""Teams, their experiments and what the team checks report, for the tests of those checks."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.core.errors import PlanCheckError
from trainstack.deployment import Deployment

STACK = "stacks/Pulumi.test.yaml"
VISION: dict[str, Any] = {
    "name": "vision",
    "members": {"groups": ["vision-researchers"]},
    "quota": {"gpu": 8, "cpu": "64", "memory": "512Gi", "pods": 10},
    "containerDefaults": {
        "requests": {"cpu": "2", "memory": "8Gi"},
        "limits": {"cpu": "8", "memory": "32Gi"},
    },
}
NLP: dict[str, Any] = {"name": "nlp", "quota": {"gpu": 4, "cpu": "32", "memory": "256Gi"}}


def vision(**changes: Any) -> dict[str, Any]:
    """Team vision (quota, defaults, members) with top-level keys replaced."""
    team = copy.deepcopy(VISION)
    team.update(changes)
    return team


def team_config(*teams: dict[str, Any], queueing: dict[str, Any] | None = None) -> dict[str, Any]:
    """The example stack with ``teams`` (team vision when none) and queueing off by default."""
    return stack_config(teams=list(teams) or [vision()], queueing=queueing or {"enabled": False})


def team_experiment(name: str, team: str | None = "vision", **changes: Any) -> dict[str, Any]:
    """The workload-1 MPIJob without its dataset, in ``team``."""
    experiment = job(datasets=[], **changes)
    experiment["name"] = name
    if team is not None:
        experiment["team"] = team
    return experiment


def workers(replicas: int, gpus: int, **resources: Any) -> dict[str, Any]:
    """A ``job.worker`` section."""
    return {"replicas": replicas, "gpus": gpus, "resources": resources}


def failures(
    deploy: Deployer, *experiments: dict[str, Any], config: dict[str, Any] | None = None
) -> list[str]:
    """The plan-time errors of deploying ``experiments`` (which must fail)."""
    with pytest.raises(PlanCheckError, match="plan-time check") as caught:
        deploy(*experiments, config=config or team_config())
    return list(caught.value.failures)


def own_warnings(deployment: Deployment) -> list[str]:
    """Warnings of the team checks (not the generic ones of checks/warning_rules.py)."""
    generic = (
        "without a memory limit",
        "the containers get full access",
        "share the node's",
        "Open MPI ranks per pod",
    )
    return [str(w) for w in deployment.warnings if not any(g in w.message for g in generic)]
