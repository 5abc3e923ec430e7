"""A job in a namespace the stack does not create gets a warning."""

from __future__ import annotations

from tests.experiment_helpers import Deployer, job, stack_config
from tests.team_helpers import example_teams


def test_unknown_namespace_is_a_warning(deploy: Deployer) -> None:
    experiment = job(datasets=[])
    experiment["namespace"] = "research"
    (warning,) = [str(w) for w in deploy(experiment).warnings if w.key == "namespace"]
    assert warning == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: namespace: "
        "'research' is neither 'default' nor a team namespace of this stack (trainstack:teams "
        "in stacks/Pulumi.test.yaml: nlp, vision); it must already exist on the cluster, or the "
        "release fails [unknownNamespace]"
    )


def test_default_and_team_namespaces_exist(deploy: Deployer) -> None:
    assert [w for w in deploy(job()).warnings if w.key == "namespace"] == []
    experiment = job(datasets=[])
    experiment["team"] = "nlp"
    experiment.pop("namespace", None)
    deployment = deploy(experiment, config=stack_config(teams=example_teams()))
    assert not [w for w in deployment.warnings if w.key == "namespace"]
