"""Each job needs an operator that serves its kind as the chart renders it, honouring every
setting the job uses; every fix a message offers works when followed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import example_config
from trainstack.core.errors import ExperimentError, PlanCheckError

ARENA = {"arena": {"version": "0.14.2"}}
TRAINING_OPERATOR = {"trainingOperator": {"version": "1.9.4"}}


def _mnist(**changes: Any) -> dict[str, Any]:
    """A TFJob: chief + 2 workers, no dataset."""
    experiment = job(framework="tensorflow", datasets=[], worker={"replicas": 2, "gpus": 1})
    experiment["job"].pop("workingDir")
    experiment["job"].update(changes)
    experiment["name"] = "mnist"
    return experiment


def test_an_mpi_job_without_an_mpi_operator_names_the_catalog_release(deploy: Deployer) -> None:
    operators = example_config("aiacc")["trainstack:operators"]
    del operators["mpiOperator"]
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(), config=stack_config(operators=operators))
    assert caught.value.failures == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.framework: mpi jobs are MPIJob kubeflow.org/v2beta1 or kubeflow.org/v1alpha1 "
        "objects, but no enabled operator of trainstack:operators in "
        "stacks/Pulumi.test.yaml installs mpijobs.kubeflow.org; serve mpijobs.kubeflow.org "
        "with operators.arena (version 0.14.2) or operators.mpiOperator (version 0.8.2)",
    )


def test_following_that_fix_plans(deploy: Deployer) -> None:
    operators = {"mpiOperator": {"version": "0.8.2", "manifestSha256": "<sha256 of the manifest>"}}
    (experiment,) = deploy(job(), config=stack_config(operators=operators)).experiments
    assert experiment.job.framework == "mpi"


def test_arena_serves_mpijobs_as_v1alpha1_without_seccomp_profiles(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(job(), config=stack_config(operators=ARENA))
    (problem,) = caught.value.problems
    assert str(problem).startswith(
        'job.security.seccompProfile: found "RuntimeDefault"; allowed: nothing with '
        "operators.arena (ACK ack-arena 0.14.2): its MPIJob kubeflow.org/v1alpha1 has no "
        "seccompProfile in pod templates, so the API server would drop it without an error; "
        "serve mpijobs.kubeflow.org with operators.mpiOperator (version 0.8.2) instead of "
        "operators.arena, or set security.seccompProfile: null"
    )


def test_following_the_second_fix_plans_the_mpijob_for_ack_arena(deploy: Deployer) -> None:
    experiment = job(security={"seccompProfile": None})
    (resolved,) = deploy(experiment, config=stack_config(operators=ARENA)).experiments
    assert resolved.values["operatorApi"] == "arena"
    # one pod template: the launcher is placed with the workers, on the GPU pool
    assert resolved.values["mpi"]["launcher"]["nodeSelector"] == {}
    assert resolved.values["worker"]["nodeSelector"] == {"trainstack.io/pool": "gpu-v100"}


def test_a_setting_arena_would_drop_is_refused_with_the_operator_and_the_fixes(
    deploy: Deployer,
) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(_mnist(), config=stack_config(operators=ARENA))
    assert caught.value.source == "experiments/00-mnist.yaml"
    (problem,) = caught.value.problems
    assert str(problem) == (
        'job.security.seccompProfile: found "RuntimeDefault"; allowed: nothing with '
        "operators.arena (ACK ack-arena 0.14.2): its TFJob kubeflow.org/v1 has no seccompProfile "
        "in pod templates, so the API server would drop it without an error; serve "
        "tfjobs.kubeflow.org with operators.trainingOperator (version 1.9.4) instead of "
        "operators.arena, or set security.seccompProfile: null (no profile is requested: the "
        "kubelet's default applies, Unconfined unless it runs with --seccomp-default)"
    )


def test_every_unhonoured_setting_is_listed(deploy: Deployer) -> None:
    experiment = _mnist(scheduling={"gang": {"enabled": True}}, runPolicy={"backoffLimit": 3})
    experiment["job"]["framework"] = "pytorch"
    arena_0_13 = {"arena": {"version": "0.13.1"}}
    with pytest.raises(ExperimentError) as caught:
        deploy(experiment, config=stack_config(operators=arena_0_13))
    # 0.13.1's PyTorchJob has spec.backoffLimit already (Arena's 0.14.1 fix was its client)
    assert [problem.path for problem in caught.value.problems] == [
        "job.scheduling.gang.enabled",
        "job.security.seccompProfile",
    ]


def test_following_the_second_fix_renders_the_arena_dialect(deploy: Deployer) -> None:
    experiment = _mnist(security={"seccompProfile": None}, runPolicy={"backoffLimit": 3})
    (resolved,) = deploy(experiment, config=stack_config(operators=ARENA)).experiments
    assert resolved.values["operatorApi"] == "arena"
    assert resolved.values["security"]["seccompProfile"] is None


def test_following_the_first_fix_keeps_every_setting(deploy: Deployer) -> None:
    (resolved,) = deploy(_mnist(), config=stack_config(operators=TRAINING_OPERATOR)).experiments
    assert resolved.values["operatorApi"] == "kubeflow"  # the chart's default
    assert resolved.values["security"]["seccompProfile"] == "RuntimeDefault"


def test_an_experiment_cannot_ask_for_another_dialect_than_its_operator_speaks(
    deploy: Deployer,
) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(
            _mnist(operatorApi="arena", security={"seccompProfile": None}),
            config=stack_config(operators=TRAINING_OPERATOR),
        )
    (problem,) = caught.value.problems
    assert str(problem) == (
        'job.operatorApi: found "arena"; allowed: kubeflow or unset: operators.trainingOperator '
        "(Kubeflow training-operator v1 1.9.4) serves tfjobs.kubeflow.org (TFJob kubeflow.org/v1)"
    )


TRAINER = {"trainer": {"version": "2.3.0"}}


def _trainjob(**changes: Any) -> dict[str, Any]:
    """A TrainJob on the torch runtime: 2 nodes with 1 GPU each, team nlp's."""
    experiment = _mnist(framework="trainjob", **changes)
    experiment["name"] = "ddp"
    return experiment


def test_a_trainjob_without_the_trainer_names_the_catalog_release(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(_trainjob(), config=stack_config())
    (failure,) = caught.value.failures
    assert failure.endswith(
        "job.framework: trainjob jobs are TrainJob trainer.kubeflow.org/v1alpha1 objects, but "
        "no enabled operator of trainstack:operators in stacks/Pulumi.test.yaml installs "
        "trainjobs.trainer.kubeflow.org; serve trainjobs.trainer.kubeflow.org with "
        "operators.trainer (version 2.3.0)"
    )


def test_following_that_fix_plans_the_trainjob_beside_the_other_operators(
    deploy: Deployer,
) -> None:
    operators = {**example_config("aiacc")["trainstack:operators"], **TRAINER}
    (experiment,) = deploy(_trainjob(), config=stack_config(operators=operators)).experiments
    assert (experiment.job.framework, experiment.job.operator_api) == ("trainjob", "kubeflow")
