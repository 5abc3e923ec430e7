"""A job needs an operator serving its kind at the version the chart renders."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import example_config
from trainstack.errors import PlanCheckError


def test_mpi_job_without_mpi_operator(deploy: Deployer) -> None:
    operators = example_config("aiacc")["trainstack:operators"]
    del operators["mpiOperator"]
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(), config=stack_config(operators=operators))
    assert caught.value.failures == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.framework: mpi jobs are kubeflow.org/v2beta1 objects, but no enabled operator "
        "installs mpijobs.kubeflow.org (trainstack:operators in stacks/Pulumi.test.yaml); "
        "enable mpiOperator",
    )


def test_arena_forked_mpi_operator_serves_the_wrong_version(deploy: Deployer) -> None:
    operators = example_config("aiacc")["trainstack:operators"]
    del operators["mpiOperator"]
    operators["arena"]["values"] = {}
    with pytest.raises(
        PlanCheckError,
        match=r"but mpijobs\.kubeflow\.org is served at "
        r"kubeflow\.org/v1alpha1 by operators\.arena",
    ):
        deploy(job(), config=stack_config(operators=operators))
