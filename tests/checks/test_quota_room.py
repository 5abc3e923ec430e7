"""With queueing, the teams' quotas must fit the pools; reported with the experiments' own
errors, in one round, each ending with its fix."""

from __future__ import annotations

import copy

import pytest

from tests.experiment_helpers import Deployer, job
from tests.stack_helpers import example_config
from trainstack.core.errors import PlanCheckError

STACK = "stacks/Pulumi.test.yaml"


def _aiacc(gpu_nodes: int = 4) -> dict:
    """The example aiacc stack (teams, Kueue, a cohort), its GPU pool at ``gpu_nodes``."""
    config = copy.deepcopy(example_config("aiacc"))
    config.pop("trainstack:experiments", None)
    config.pop("trainstack:acknowledge", None)
    config["trainstack:nodePools"][0]["desiredSize"] = gpu_nodes
    config["trainstack:datasets"][0]["namespace"] = "default"
    config["trainstack:datasets"] = config["trainstack:datasets"][:1]
    return config


def _failures(deploy: Deployer, config: dict, *experiments: dict) -> list[str]:
    with pytest.raises(PlanCheckError, match="plan-time check") as caught:
        deploy(*experiments, config=config)
    return list(caught.value.failures)


def test_the_teams_gpu_quota_beyond_the_pools(deploy: Deployer) -> None:
    config = _aiacc()
    config["trainstack:teams"][1]["quota"]["gpu"] = 12  # vision 10 + nlp 12 > 16 V100
    assert _failures(deploy, config) == [
        f"{STACK}: experiment (stack): trainstack:teams: 22 V100 GPUs of quota (vision 10, nlp "
        "12), but the stack's pools have 16 V100 GPUs at most (gpu-v100: 4 nodes x 4): Kueue "
        "would admit jobs for GPUs that do not exist; lower the quotas to 16 in total "
        "(trainstack:teams[0].quota.gpu, trainstack:teams[1].quota.gpu, or "
        f"quota.gpuModels.V100), or add nodes ({STACK}: trainstack:nodePools[0].desiredSize)"
    ]


def test_the_teams_cpu_quota_beyond_what_pods_can_request(deploy: Deployer) -> None:
    config = _aiacc()
    # 4 x 47.81 + 2 x 7.91 = 207.06 cores pods can request; 150 + 72 = 222 of quota
    config["trainstack:teams"][0]["quota"]["cpu"] = "150"
    (failure,) = _failures(deploy, config)
    assert failure.startswith(
        f"{STACK}: experiment (stack): trainstack:teams: 222 cpu of quota (vision 150, nlp 72), "
        "but pods can request 207.06 cpu on the stack's pools"
    )
    assert failure.endswith(
        f"lower the teams' quota.cpu to 207.06 in total, or add nodes ({STACK}: "
        f"trainstack:nodePools[0].desiredSize, {STACK}: trainstack:nodePools[1].desiredSize)"
    )


def test_shrinking_a_pool_reports_quotas_and_experiments_in_one_round(
    deploy: Deployer,
) -> None:
    """The issue: 4 GPU nodes -> 2. The quota error says to lower quotas or add nodes (no
    cohort hint: the stack has one), and ImageNet's 16 GPUs fail in the same round."""
    failures = _failures(deploy, _aiacc(gpu_nodes=2), job())
    assert [line.split(": ")[2] for line in failures] == [
        "job.worker.replicas",
        "trainstack:teams",
        "trainstack:teams",
        "trainstack:teams",
    ]
    assert failures[0] == (
        "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow: "
        "job.worker.replicas: the job needs 16 GPUs (4 worker x 4), but pool gpu-v100 has at "
        f"most 8 (2 nodes x 4; {STACK}: trainstack:nodePools[0]): ask for at most 8 GPUs "
        f"(fewer replicas or GPUs per pod), or raise {STACK}: trainstack:nodePools[0].desiredSize"
    )
    assert all("cohort" not in line for line in failures)
    assert "16 V100 GPUs of quota (vision 10, nlp 6)" in failures[2] + failures[3]


def test_without_queueing_the_quotas_are_not_compared(deploy: Deployer) -> None:
    config = _aiacc(gpu_nodes=2)
    config["trainstack:queueing"] = {"enabled": False}
    for team in config["trainstack:teams"]:
        team.pop("borrowingLimit", None)
        team["quota"].pop("gpuModels", None)
    deployment = deploy(config=config)
    assert deployment.experiments == ()
