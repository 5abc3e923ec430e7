"""GPU counts of a PyTorchJob mean what Arena users expect, in the plan's checks and totals:
the master counts among ``worker.replicas``, and a message about the master's GPUs, a key
the file need not write, says where its value came from and how to change it."""

from __future__ import annotations

import re

import pytest

from tests.experiment_helpers import Deployer, job
from trainstack.checks.pods import role_pods, total_gpus
from trainstack.core.errors import PlanCheckError
from trainstack.core.yaml.positions import at

SOURCE = "stacks/Pulumi.test.yaml"


def _pytorch(**worker: object) -> dict:
    experiment = job(framework="pytorch", worker=worker, command="python train.py")
    experiment["name"] = "ddp"
    return experiment


def test_two_workers_of_four_gpus_are_two_pods_and_eight_gpus(deploy: Deployer) -> None:
    (experiment,) = deploy(_pytorch(replicas=2, gpus=4)).experiments
    pods = [(role.role, role.replicas, role.gpus) for role in role_pods(experiment.job)]
    assert pods == [("master", 1, 4), ("worker", 1, 4)]
    assert total_gpus(experiment.job) == 8


def test_the_masters_inherited_gpus_are_named_with_their_default(deploy: Deployer) -> None:
    """The issue's job: 2 x 8 GPUs on 4-GPU nodes. The master's count is worker.gpus' by
    default: one error, at the key the file writes, says so."""
    with pytest.raises(PlanCheckError) as caught:
        deploy(_pytorch(replicas=2, gpus=8))
    assert caught.value.failures == (
        "experiments/00-ddp.yaml: experiment ddp: job.worker.gpus: 8 GPUs per worker and "
        "master pod (master: not set in the file, job.worker.gpus by default), but a node of "
        f"pool gpu-v100 has 4 ({SOURCE}: trainstack:nodePools[0].gpusPerNode): the pod can "
        "never be scheduled; set job.worker.gpus to at most 4 (more pods with fewer GPUs "
        "each), or run the experiment on a pool of larger nodes "
        "(trainstack:experiments.nodePools)",
    )


def test_the_first_error_of_a_nine_gpu_worker_names_the_key_written(deploy: Deployer) -> None:
    """Issue 38: job.worker.gpus, at its line, not the master's derived key."""
    with pytest.raises(PlanCheckError) as caught:
        deploy(_pytorch(replicas=2, gpus=9))
    first = caught.value.lines(at)[0]
    assert re.match(
        r"plan-time check failed: experiments/00-ddp\.yaml:\d+: experiment ddp: "
        r"job\.worker\.gpus: 9 GPUs per worker and master pod",
        first,
    )


def test_a_master_with_its_own_count_has_its_own_error(deploy: Deployer) -> None:
    experiment = _pytorch(replicas=2, gpus=4)
    experiment["job"]["pytorch"] = {"master": {"gpus": 8}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    (failure,) = caught.value.failures
    assert ": job.pytorch.master.gpus: 8 GPUs per master pod, but a node" in failure


def test_a_job_above_the_pool_names_the_masters_default_in_its_breakdown(
    deploy: Deployer,
) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(_pytorch(replicas=5, gpus=4))
    (failure,) = caught.value.failures
    assert "the job needs 20 GPUs (1 master x 4 (not set in the file: job.worker.gpus (4) by " in (
        failure
    )
    assert "+ 4 worker x 4)" in failure


def test_a_master_with_its_own_gpus_is_named_plainly(deploy: Deployer) -> None:
    experiment = _pytorch(replicas=2, gpus=4)
    experiment["job"]["pytorch"] = {"master": {"gpus": 8}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    (failure,) = caught.value.failures
    assert failure.startswith(
        "experiments/00-ddp.yaml: experiment ddp: job.pytorch.master.gpus: 8 GPUs per master pod"
    )
