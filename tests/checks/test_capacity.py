"""Jobs that cannot fit their node pools are refused at plan time, naming pool and key."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.project_copy import copy_project, edit_yaml, run_in_process
from tests.stack_helpers import A100_POOL
from trainstack.core.errors import PlanCheckError

FILE = "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow"
SOURCE = "stacks/Pulumi.test.yaml"
POOL = f"{SOURCE}: trainstack:nodePools[0]"


def test_workload_one_fits(deploy: Deployer) -> None:
    (experiment,) = deploy(job()).experiments
    assert experiment.job.worker.gpus * experiment.job.worker.replicas == 16


def test_more_gpus_per_pod_than_a_node_has(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 2, "gpus": 8}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 8 GPUs per worker pod, but a node of pool gpu-v100 has 4 "
        f"({SOURCE}: trainstack:nodePools[0].gpusPerNode): the pod can never be scheduled; "
        "set job.worker.gpus to at most 4 (more pods with fewer GPUs each), or run the "
        "experiment on a pool of larger nodes (trainstack:experiments.nodePools)",
    )


def test_more_gpus_than_the_pool_has(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 5, "gpus": 4}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.replicas: the job needs 20 GPUs (5 worker x 4), but pool "
        f"gpu-v100 has at most 16 (4 nodes x 4; {POOL}): ask for at most 16 GPUs (fewer "
        f"replicas or GPUs per pod), or raise {SOURCE}: trainstack:nodePools[0].desiredSize",
    )


def test_gpus_that_fit_in_total_but_not_per_node(deploy: Deployer) -> None:
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 5, "gpus": 3}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.gpus: 15 GPUs fit the 16 of pool gpu-v100 in total, but pods of "
        f"3, 3, 3, 3, 3 GPUs cannot be placed on 4 nodes of 4 GPUs ({POOL}): give each pod a "
        f"GPU count that divides 4, or raise {SOURCE}: trainstack:nodePools[0].desiredSize",
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


ACK_POLICY = (
    "ACK's resource reservation policy for Kubernetes 1.35, max pods 256, "
    "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/"
    "resource-reservation-policy"
)


def test_a_pod_requesting_a_nodes_whole_instance_cpu_is_refused(deploy: Deployer) -> None:
    """48 vCPU is the instance; ACK keeps 190m of it (1.28+: 6% of the first core, 1% of the
    second, 0.5% of the next two, 0.25% of the 44 others), so 47.81 is what pods get."""
    resources = {"requests": {"cpu": "48"}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 4, "gpus": 4, "resources": resources}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.resources.requests.cpu: worker pods request 48 cpu, but pods "
        "can request 47.81 on a node of pool gpu-v100 (its allocatable: capacity 48 - 0.19 "
        f"reserved by {ACK_POLICY}; {SOURCE}: trainstack:nodePools[0].cpuPerNode): the pod "
        "can never be scheduled; request at most 47.81 cpu per pod",
    )


def test_cpu_and_memory_larger_than_a_node(deploy: Deployer) -> None:
    # 368Gi = 376832Mi; ACK keeps min(11 x 256 + 255, 25%) = 3071Mi, the kubelet 300Mi more.
    resources = {"requests": {"cpu": "47.82", "memory": "364.75Gi"}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 1, "gpus": 4, "resources": resources}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.resources.requests.cpu: worker pods request 47.82 cpu, but pods "
        "can request 47.81 on a node of pool gpu-v100 (its allocatable: capacity 48 - 0.19 "
        f"reserved by {ACK_POLICY}; {SOURCE}: trainstack:nodePools[0].cpuPerNode): the pod "
        "can never be scheduled; request at most 47.81 cpu per pod",
        f"{FILE}: job.worker.resources.requests.memory: worker pods request 364.75Gi memory, "
        "but pods can request 364.708Gi on a node of pool gpu-v100 (its allocatable: "
        f"capacity 368Gi - 3.292Gi reserved by {ACK_POLICY}; "
        f"{SOURCE}: trainstack:nodePools[0].memoryPerNode): the pod can never be "
        "scheduled; request at most 364.708Gi memory per pod",
    )


def test_what_a_node_allows_fits(deploy: Deployer) -> None:
    resources = {"requests": {"cpu": "47.81", "memory": "373461Mi"}}
    (experiment,) = deploy(
        job(worker={"replicas": 4, "gpus": 4, "resources": resources})
    ).experiments
    assert experiment.job.worker.replicas == 4


def test_a_declared_allocatable_is_what_counts(deploy: Deployer) -> None:
    config = stack_config()
    config["trainstack:nodePools"][0]["allocatable"] = {"cpu": "46"}
    resources = {"requests": {"cpu": "47"}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 1, "gpus": 4, "resources": resources}), config=config)
    assert caught.value.failures == (
        f"{FILE}: job.worker.resources.requests.cpu: worker pods request 47 cpu, but pods "
        "can request 46 on a node of pool gpu-v100 (its allocatable: declared; "
        f"{SOURCE}: trainstack:nodePools[0].allocatable.cpu): the pod can never be "
        "scheduled; request at most 46 cpu per pod",
    )


def test_pods_that_each_fit_but_not_together_are_refused(deploy: Deployer) -> None:
    # 8 pods of 30 cores, 2 GPUs each: the GPUs pack 2 per node, but 240 cores > 4 x 47.81.
    resources = {"requests": {"cpu": "30"}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(worker={"replicas": 8, "gpus": 2, "resources": resources}))
    assert caught.value.failures == (
        f"{FILE}: job.worker.resources.requests.cpu: the job's pods request 240 cpu on pool "
        "gpu-v100 together, but its 4 nodes let pods request 191.24 (47.81 each, capacity 48 "
        f"- 0.19 reserved by {ACK_POLICY}; {SOURCE}: trainstack:nodePools[0].cpuPerNode): "
        "some pods never schedule; request less per pod or add nodes to the pool",
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
        f"own node, but pool gpu-v100 has at most 4 nodes ({POOL}): use at most 4 workers, "
        f"raise {SOURCE}: trainstack:nodePools[0].desiredSize, or set "
        "job.scheduling.workerSpread: preferred",
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
        f"of 1001 x 3 GPUs cannot be placed on 1000 nodes of 4 GPUs ({POOL}): give each pod a "
        f"GPU count that divides 4, or raise {SOURCE}: "
        "trainstack:nodePools[0].autoscaling.maxSize",
    )


def test_the_launcher_is_checked_against_the_cpu_pool(deploy: Deployer) -> None:
    # The example CPU pool has 8 cores per node, 7.91 for pods: an 8-core launcher never fits.
    launcher = {"launcher": {"resources": {"requests": {"cpu": "8"}}}}
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(mpi=launcher))
    assert caught.value.failures == (
        f"{FILE}: job.mpi.launcher.resources.requests.cpu: launcher pods request 8 cpu, but "
        "pods can request 7.91 on a node of pool cpu (its allocatable: capacity 8 - 0.09 "
        f"reserved by {ACK_POLICY}; {SOURCE}: trainstack:nodePools[1].cpuPerNode): the pod "
        "can never be scheduled; request at most 7.91 cpu per pod",
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
        f"gpu-a100 has at most 8 (1 nodes x 8; {SOURCE}: trainstack:nodePools[2]): ask for "
        "at most 8 GPUs (fewer replicas or GPUs per pod), or raise "
        f"{SOURCE}: trainstack:nodePools[2].desiredSize",
    )


def test_the_real_plan_refuses_workload_one_asking_for_whole_nodes(tmp_path: Path) -> None:
    """`trainstack plan aiacc` with ImageNet's workers requesting the instance's 48 vCPU."""
    project = copy_project(tmp_path / "project")
    experiment = project / "experiments" / "imagenet-tensorflow.yaml"

    def whole_node(document: dict[str, Any]) -> None:
        document["job"]["worker"]["resources"] = {"requests": {"cpu": "48"}}

    edit_yaml(experiment, whole_node)
    outcome = run_in_process(["plan", "aiacc", "--output-dir", str(project / "out")], project)
    line = next(i for i, text in enumerate(experiment.read_text().splitlines()) if "cpu:" in text)
    # The pool is written in the stacks' cluster template: named there, at its line.
    template = project / "stacks" / "templates" / "workload-1-ack.yaml"
    cpu_line = next(
        i for i, text in enumerate(template.read_text().splitlines()) if "cpuPerNode:" in text
    )
    assert outcome.status == 2 and "Traceback" not in outcome.stderr
    # (the other errors are the team's: its default limit and quota)
    assert (
        f"error: plan-time check failed: experiments/imagenet-tensorflow.yaml:{line + 1}: "
        "experiment imagenet-tensorflow: job.worker.resources.requests.cpu: worker pods "
        "request 48 cpu, but pods can request 47.81 on a node of pool gpu-v100 (its "
        f"allocatable: capacity 48 - 0.19 reserved by {ACK_POLICY}; "
        f"stacks/templates/workload-1-ack.yaml:{cpu_line + 1}: nodePools[0].cpuPerNode): "
        "the pod can "
        "never be scheduled; request at most 47.81 cpu per pod"
    ) in outcome.error_lines
