"""Jobs that cannot fit the GPU pool are refused at plan time, with the numbers."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.errors import PlanCheckError

FILE = "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow"
POOL = "trainstack:nodePool in stacks/Pulumi.test.yaml"


def test_workload_one_fits(deploy: Deployer) -> None:
    (experiment,) = deploy(job()).experiments
    assert experiment.job.worker.gpus * experiment.job.worker.replicas == 16


def test_more_gpus_per_pod_than_a_node_has(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 2, "gpus": 8}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 8 GPUs per worker pod, but a node of pool gpu-v100 has 4 "
        f"({POOL}.gpusPerNode): the pod can never be scheduled",
    )


def test_more_gpus_than_the_pool_has(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 5, "gpus": 4}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.replicas: the job needs 20 GPUs (5 worker x 4), but pool "
        f"gpu-v100 has at most 16 (4 nodes x 4; {POOL})",
    )


def test_gpus_that_fit_in_total_but_not_per_node(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 5, "gpus": 3}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 15 GPUs fit the pool's 16 in total, but pods of "
        f"3, 3, 3, 3, 3 GPUs cannot be placed on 4 nodes of 4 GPUs ({POOL})",
    )


def test_chief_gpus_count_too(deploy: Deployer) -> None:
    tensorflow = job(
        framework="tensorflow",
        worker={"replicas": 3, "gpus": 4},
        tensorflow={"chief": {"replicas": 1, "gpus": 4}, "ps": {"replicas": 1, "gpus": 1}},
    )
    with pytest.raises(
        PlanCheckError,
        match=r"needs 17 GPUs \(1 chief x 4 \+ 3 worker x 4 \+ 1 ps x 1\), "
        r"but pool gpu-v100 has at most 16",
    ):
        deploy(tensorflow)


def test_cpu_and_memory_larger_than_a_node(deploy: Deployer) -> None:
    resources = {"requests": {"cpu": "64", "memory": "400Gi"}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 1, "gpus": 4, "resources": resources}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.resources.requests.cpu: worker pods request 64 cpu, but a node "
        f"has 48 ({POOL}.cpuPerNode): the pod can never be scheduled",
        f"{FILE}: job.worker.resources.requests.memory: worker pods request 400Gi memory, "
        f"but a node has 368Gi ({POOL}.memoryPerNode): the pod can never be scheduled",
    )


def test_autoscaling_counts_the_largest_pool(deploy: Deployer) -> None:
    config = stack_config()
    config["trainstack:nodePool"]["autoscaling"] = {"enabled": True, "minSize": 0, "maxSize": 8}
    (experiment,) = deploy(job(worker={"replicas": 8, "gpus": 4}), config=config).experiments
    assert experiment.job.worker.replicas == 8


def test_required_spread_needs_a_node_per_worker(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 5, "gpus": 1}, scheduling={"workerSpread": "required"}))
    assert caught.value.failures == (
        f"{FILE}: job.scheduling.workerSpread: required puts each of the 5 workers on its "
        f"own node, but pool gpu-v100 has at most 4 nodes ({POOL})",
    )


def test_thousands_of_pods_are_counted_not_listed(deploy: Deployer) -> None:
    config = stack_config()
    pool = config["trainstack:nodePool"]
    pool["autoscaling"] = {"enabled": True, "minSize": 0, "maxSize": 1000}
    pool.pop("cpuPerNode", None)
    pool.pop("memoryPerNode", None)
    # 1001 pods of 3 GPUs: 3003 of 4000 GPUs, but one such pod per 4-GPU node.
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 1001, "gpus": 3}), config=config)
    (failure,) = caught.value.failures
    assert failure.endswith(
        "job.worker.gpus: 3003 GPUs fit the pool's 4000 in total, but pods of 1001 x 3 GPUs "
        f"cannot be placed on 1000 nodes of 4 GPUs ({POOL})"
    )
