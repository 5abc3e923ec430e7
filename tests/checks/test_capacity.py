"""Jobs that cannot fit their node pools are refused at plan time, naming pool and key."""

from __future__ import annotations

import copy

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import A100_POOL
from trainstack.core.errors import PlanCheckError

FILE = "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow"
SOURCE = "stacks/Pulumi.test.yaml"
POOL = f"trainstack:nodePools[0] in {SOURCE}"


def test_workload_one_fits(deploy: Deployer) -> None:
    (experiment,) = deploy(job()).experiments
    assert experiment.job.worker.gpus * experiment.job.worker.replicas == 16


def test_more_gpus_per_pod_than_a_node_has(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 2, "gpus": 8}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 8 GPUs per worker pod, but a node of pool gpu-v100 has 4 "
        f"(trainstack:nodePools[0].gpusPerNode in {SOURCE}): the pod can never be scheduled",
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
        f"{FILE}: job.worker.gpus: 15 GPUs fit the 16 of pool gpu-v100 in total, but pods of "
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
        f"of pool gpu-v100 has 48 (trainstack:nodePools[0].cpuPerNode in {SOURCE}): the pod "
        "can never be scheduled",
        f"{FILE}: job.worker.resources.requests.memory: worker pods request 400Gi memory, "
        f"but a node of pool gpu-v100 has 368Gi (trainstack:nodePools[0].memoryPerNode in "
        f"{SOURCE}): the pod can never be scheduled",
    )


def test_autoscaling_counts_the_largest_pool(deploy: Deployer) -> None:
    config = stack_config()
    config["trainstack:nodePools"][0]["autoscaling"] = {"enabled": True, "minSize": 0, "maxSize": 8}
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
    config = stack_config(queueing={"enabled": False})
    pool = config["trainstack:nodePools"][0]
    pool["autoscaling"] = {"enabled": True, "minSize": 0, "maxSize": 1000}
    pool.pop("cpuPerNode", None)
    pool.pop("memoryPerNode", None)
    # 1001 pods of 3 GPUs: 3003 of 4000 GPUs, but one such pod per 4-GPU node.
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 1001, "gpus": 3}), config=config)
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 3003 GPUs fit the 4000 of pool gpu-v100 in total, but pods "
        f"of 1001 x 3 GPUs cannot be placed on 1000 nodes of 4 GPUs ({POOL})",
    )


def test_the_launcher_is_checked_against_the_cpu_pool(deploy: Deployer) -> None:
    # The example CPU pool has 8 cores per node: a 16-core launcher never fits there.
    launcher = {"launcher": {"resources": {"requests": {"cpu": "16"}}}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(mpi=launcher))
    assert caught.value.failures == (
        f"{FILE}: job.mpi.launcher.resources.requests.cpu: launcher pods request 16 cpu, but "
        f"a node of pool cpu has 8 (trainstack:nodePools[1].cpuPerNode in {SOURCE}): the pod "
        "can never be scheduled",
    )


def test_each_gpu_pool_is_checked_on_its_own(deploy: Deployer) -> None:
    config = stack_config(queueing={"enabled": False})
    config["trainstack:nodePools"].append(copy.deepcopy(A100_POOL))
    # 8 GPUs per pod fit the A100 pool, not the V100 one.
    (experiment,) = deploy(
        dict(job(worker={"replicas": 1, "gpus": 8}), nodePool="gpu-a100"), config=config
    ).experiments
    assert experiment.pool == "gpu-a100"
    with pytest.raises(PlanCheckError) as caught:
        deploy(dict(job(worker={"replicas": 2, "gpus": 8}), nodePool="gpu-a100"), config=config)
    assert caught.value.failures == (
        f"{FILE}: job.worker.replicas: the job needs 16 GPUs (2 worker x 8), but pool "
        f"gpu-a100 has at most 8 (1 nodes x 8; trainstack:nodePools[2] in {SOURCE})",
    )
