"""Claims no stack dataset provides are refused at plan time."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.team_helpers import example_teams
from trainstack.core.errors import PlanCheckError

FILE = "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow"


def test_unknown_dataset_claim(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(datasets=[{"claimName": "imagenet", "mountPath": "/data"}]))
    assert caught.value.failures == (
        f"{FILE}: job.datasets[0].claimName: claim 'imagenet' is not provided by any dataset "
        "of the stack in namespace 'default' (trainstack:datasets in stacks/Pulumi.test.yaml "
        "provides: imagenet-data): add a dataset 'imagenet' in namespace 'default' to "
        "trainstack:datasets, or mount 'imagenet-data' instead",
    )


def test_claim_in_another_namespace(deploy: Deployer) -> None:
    experiment = job()
    experiment["namespace"] = "vision"
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    (failure,) = caught.value.failures
    assert failure.endswith(
        "in namespace 'vision' (trainstack:datasets in stacks/Pulumi.test.yaml provides: none): "
        "add 'vision' to trainstack:datasets[0].sharedWith (dataset 'imagenet-data' is in "
        "'default')"
    )


def test_unknown_results_claim(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError, match=r"job\.results\.claimName: claim 'results'"):
        deploy(job(results={"claimName": "results", "mountPath": "/results"}))


def test_a_shared_dataset_is_provided_in_every_namespace(deploy: Deployer) -> None:
    config = stack_config(teams=example_teams())
    config["trainstack:datasets"][0].update(namespace="vision", sharedWith=["nlp"])
    experiment = job(datasets=[{"claimName": "other", "mountPath": "/data"}])
    experiment["team"] = "nlp"
    experiment.pop("namespace", None)
    with pytest.raises(PlanCheckError, match=r"in namespace 'nlp' .* provides: imagenet-data\)"):
        deploy(experiment, config=config)
