"""Experiments belong to a team: its namespace, or a namespace that is a team's."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.core.errors import ExperimentError, PlanCheckError

DEFAULTS = {"requests": {"cpu": "1", "memory": "4Gi"}, "limits": {"memory": "16Gi"}}
TEAMS = [
    {
        "name": "vision",
        "quota": {"gpu": 16, "cpu": "96", "memory": "1Ti"},
        "containerDefaults": DEFAULTS,
    },
    {
        "name": "nlp",
        "namespace": "team-nlp",
        "quota": {"gpu": 8, "cpu": "48", "memory": "512Gi"},
        "containerDefaults": DEFAULTS,
    },
]
WORKER = {"replicas": 1, "gpus": 1, "resources": {"limits": {"memory": "64Gi"}}}


def _config(**sections: object) -> dict:
    return stack_config(teams=TEAMS, queueing={"enabled": False}, **sections)


def _in(team: str | None = None, namespace: str | None = None) -> dict:
    experiment = job(datasets=[], worker=WORKER)
    if team is not None:
        experiment["team"] = team
    if namespace is not None:
        experiment["namespace"] = namespace
    return experiment


def test_the_team_namespace_is_the_experiment_namespace(deploy: Deployer) -> None:
    (experiment,) = deploy(_in(team="nlp"), config=_config()).experiments
    assert (experiment.namespace, experiment.team) == ("team-nlp", "nlp")


def test_a_team_namespace_puts_the_experiment_in_the_team(deploy: Deployer) -> None:
    (experiment,) = deploy(_in(namespace="vision"), config=_config()).experiments
    assert (experiment.namespace, experiment.team) == ("vision", "vision")
    (other,) = deploy(_in(namespace="research"), config=_config()).experiments
    assert (other.namespace, other.team) == ("research", None)


def test_without_team_or_namespace_it_runs_in_default(deploy: Deployer) -> None:
    (experiment,) = deploy(_in(), config=_config()).experiments
    assert (experiment.namespace, experiment.team) == ("default", None)


def test_an_unknown_team(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError, match="00-imagenet-tensorflow.yaml") as caught:
        deploy(_in(team="speech"), config=_config())
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.allowed) == (
        "team",
        "'speech'",
        "a team of trainstack:teams in stacks/Pulumi.test.yaml: vision, nlp",
    )


def test_a_team_and_another_namespace(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError, match="00-imagenet-tensorflow.yaml") as caught:
        deploy(_in(team="nlp", namespace="nlp"), config=_config())
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.allowed) == (
        "namespace",
        "'nlp'",
        "unset or 'team-nlp': team nlp works in namespace 'team-nlp' (its quota and members "
        "are there)",
    )
    (same,) = deploy(_in(team="nlp", namespace="team-nlp"), config=_config()).experiments
    assert same.namespace == "team-nlp"


def test_another_team_mounts_a_shared_dataset(deploy: Deployer) -> None:
    experiment = job(worker=WORKER)
    experiment["team"] = "nlp"
    dataset = stack_config()["trainstack:datasets"][0]
    dataset["namespace"] = "vision"
    with pytest.raises(PlanCheckError, match="in namespace 'team-nlp'"):
        deploy(experiment, config=_config(datasets=[dataset]))
    dataset["sharedWith"] = ["team-nlp"]
    (shared,) = deploy(experiment, config=_config(datasets=[dataset])).experiments
    assert shared.namespace == "team-nlp"
