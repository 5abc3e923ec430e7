"""Warnings do not stop a plan; they say what often ruins a run."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.team_helpers import example_teams
from trainstack.deployment import Deployment
from trainstack.errors import PlanCheckError


def _warnings(deployment: Deployment) -> list[str]:
    return [str(warning) for warning in deployment.warnings]


def test_small_shm_on_a_nccl_job(deploy: Deployer) -> None:
    warnings = _warnings(deploy(job(shm={"enabled": True, "sizeLimit": "512Mi"})))
    assert warnings == [
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.shm.sizeLimit: 512Mi is under 1Gi on a multi-GPU job: NCCL needs more shared "
        "memory"
    ]


def test_no_shm_on_a_nccl_job(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(shm={"enabled": False})))
    assert "job.shm.enabled: false on a multi-GPU job" in warning


def test_gpu_pods_without_memory_limit(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(worker={"replicas": 4, "gpus": 4})))
    assert warning.endswith(
        "job.worker.resources.limits.memory: worker pods hold 4 GPU(s) without a memory "
        "limit: an over-committed node kills jobs; set one (or a namespace LimitRange default)"
    )


def test_workload_one_with_limits_has_no_warning(deploy: Deployer) -> None:
    assert _warnings(deploy(job())) == []


def test_ttl_after_finished_reruns_the_job(deploy: Deployer) -> None:
    (warning,) = _warnings(deploy(job(runPolicy={"ttlSecondsAfterFinished": 600})))
    assert warning.endswith(
        "job.runPolicy.ttlSecondsAfterFinished: 600: the operator deletes the finished job, "
        "and the next `pulumi up` creates it again and re-runs it; remove the experiment "
        "from the stack to clean up instead"
    )


def test_team_memory_default_counts_as_a_limit(deploy: Deployer) -> None:
    experiment = job(worker={"replicas": 2, "gpus": 4})
    experiment["team"] = "vision"
    experiment.pop("namespace", None)
    experiment["job"]["datasets"] = []
    config = stack_config(teams=example_teams())
    assert _warnings(deploy(experiment, config=config)) == []
    no_default = example_teams()
    no_default[0]["containerDefaults"] = {}
    with pytest.raises(PlanCheckError, match=r"limits\.memory: unset on worker pods"):
        # Without a default the team's quota refuses such pods outright (an error).
        deploy(experiment, config=stack_config(teams=no_default))


def test_a_credential_in_job_env_is_a_warning_that_never_shows_it(deploy: Deployer) -> None:
    warnings = _warnings(
        deploy(job(env={"WANDB_API_KEY": "wb-Secret-9", "TOKENIZERS_PARALLELISM": "false"}))
    )
    assert warnings == [
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.env.WANDB_API_KEY: looks like a credential (by its name; the value is not shown) "
        "in plain text: it is written into the plan, the Helm release and the pods' spec, "
        "readable by all who can read those; keep it in a Kubernetes Secret instead"
    ]
