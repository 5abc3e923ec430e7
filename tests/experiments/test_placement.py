"""Each role lands on its pool: GPU roles on the GPU pool, the rest on the CPU pool or free."""

from __future__ import annotations

from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import A100_POOL
from trainstack.core.errors import ConfigError, ExperimentError

GPU = {"trainstack.io/pool": "gpu-v100"}
CPU = {"trainstack.io/pool": "cpu"}
GPU_TOLERATION = {
    "key": "nvidia.com/gpu",
    "operator": "Equal",
    "value": "true",
    "effect": "NoSchedule",
}


def _without_cpu_pool() -> dict[str, Any]:
    config = stack_config()
    config["trainstack:nodePools"] = config["trainstack:nodePools"][:1]
    return config


def test_mpi_launcher_on_the_cpu_pool_and_workers_on_the_gpu_pool(deploy: Deployer) -> None:
    (experiment,) = deploy(job()).experiments
    values = experiment.values
    assert values["worker"]["nodeSelector"] == GPU
    assert values["worker"]["tolerations"] == [GPU_TOLERATION]
    assert values["mpi"]["launcher"]["nodeSelector"] == CPU
    assert (
        "tolerations" not in values["mpi"]["launcher"]
        or not values["mpi"]["launcher"]["tolerations"]
    )
    # Nothing job-wide: each role has its own pool.
    assert not values.get("scheduling", {}).get("nodeSelector")
    assert experiment.pool == "gpu-v100"


def test_without_a_cpu_pool_roles_without_gpus_are_left_unpinned(deploy: Deployer) -> None:
    (experiment,) = deploy(job(), config=_without_cpu_pool()).experiments
    launcher = experiment.values["mpi"]["launcher"]
    assert not launcher.get("nodeSelector") and not launcher.get("tolerations")
    assert experiment.values["worker"]["nodeSelector"] == GPU


def test_a_cpu_only_job_is_never_pinned_to_the_gpu_pool(deploy: Deployer) -> None:
    (experiment,) = deploy(job(worker={"replicas": 2, "gpus": 0})).experiments
    assert experiment.values["worker"]["nodeSelector"] == CPU
    (unpinned,) = deploy(
        job(worker={"replicas": 2, "gpus": 0}), config=_without_cpu_pool()
    ).experiments
    assert not unpinned.values["worker"].get("nodeSelector")
    assert not unpinned.values["worker"].get("tolerations")


def test_a_parameter_server_with_its_own_selector_keeps_it(deploy: Deployer) -> None:
    tensorflow = job(
        framework="tensorflow",
        worker={"replicas": 2, "gpus": 1},
        tensorflow={"ps": {"replicas": 1, "nodeSelector": {"ssd_node": "true"}}},
    )
    (experiment,) = deploy(tensorflow).experiments
    ps = experiment.values["tensorflow"]["ps"]
    # The role's selector replaces the pool default: no GPU pool label, no GPU toleration.
    assert ps["nodeSelector"] == {"ssd_node": "true"}
    assert not ps.get("tolerations")
    assert experiment.values["tensorflow"]["chief"]["nodeSelector"] == GPU


def test_a_job_wide_selector_places_every_role_itself(deploy: Deployer) -> None:
    own = {"nodeSelector": {"gpu": "a100"}, "tolerations": [{"operator": "Exists"}]}
    (experiment,) = deploy(job(scheduling=own)).experiments
    assert not experiment.values["worker"].get("nodeSelector")
    assert not experiment.values["mpi"]["launcher"].get("nodeSelector")


def _two_gpu_pools(**experiments: Any) -> dict[str, Any]:
    config = stack_config(queueing={"enabled": False}, **experiments)
    config["trainstack:nodePools"].append({**A100_POOL, "desiredSize": 2})
    return config


def test_an_experiment_chooses_its_gpu_pool(deploy: Deployer) -> None:
    config = _two_gpu_pools()
    (default,) = deploy(job(), config=config).experiments
    assert default.values["worker"]["nodeSelector"] == GPU
    (chosen,) = deploy(dict(job(), nodePool="gpu-a100"), config=config).experiments
    assert chosen.values["worker"]["nodeSelector"] == {"trainstack.io/pool": "gpu-a100"}
    assert chosen.values["mpi"]["launcher"]["nodeSelector"] == CPU


def test_a_stack_overrides_the_pool_an_experiment_chooses(deploy: Deployer) -> None:
    config = _two_gpu_pools(experiments={"nodePools": {"imagenet-tensorflow": "gpu-v100"}})
    (experiment,) = deploy(dict(job(), nodePool="gpu-a100"), config=config).experiments
    assert experiment.pool == "gpu-v100"


def test_an_unknown_pool_is_refused_with_the_pools(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(dict(job(), nodePool="gpu-h100"), config=_two_gpu_pools())
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == ("nodePool", "'gpu-h100'")
    assert problem.allowed == (
        "a GPU pool of trainstack:nodePools in stacks/Pulumi.test.yaml: gpu-v100, gpu-a100"
    )


def test_a_cpu_pool_cannot_be_an_experiments_gpu_pool(deploy: Deployer) -> None:
    config = _two_gpu_pools(experiments={"nodePools": {"imagenet-tensorflow": "cpu"}})
    with pytest.raises(
        ConfigError, match=r"nodePools\.imagenet-tensorflow: found 'cpu' \(a CPU pool\)"
    ):
        deploy(job(), config=config)


def test_pools_of_an_unknown_experiment_are_refused(deploy: Deployer) -> None:
    config = _two_gpu_pools(experiments={"nodePools": {"resnet": "gpu-a100"}})
    with pytest.raises(ConfigError, match=r"trainstack:experiments\.nodePools\.resnet"):
        deploy(job(), config=config)
