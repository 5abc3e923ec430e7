"""Plan-time checks of a team's experiments: quota per job and together, defaults, Pod Security."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.core.errors import PlanCheckError
from trainstack.deployment import Deployment

STACK = "stacks/Pulumi.test.yaml"
VISION: dict[str, Any] = {
    "name": "vision",
    "members": {"groups": ["vision-researchers"]},
    "quota": {"gpu": 8, "cpu": "64", "memory": "512Gi", "pods": 10},
    "containerDefaults": {
        "requests": {"cpu": "2", "memory": "8Gi"},
        "limits": {"cpu": "8", "memory": "32Gi"},
    },
}
NLP: dict[str, Any] = {"name": "nlp", "quota": {"gpu": 4, "cpu": "32", "memory": "256Gi"}}


def _vision(**changes: Any) -> dict[str, Any]:
    team = copy.deepcopy(VISION)
    team.update(changes)
    return team


def _config(*teams: dict[str, Any], queueing: dict[str, Any] | None = None) -> dict[str, Any]:
    return stack_config(teams=list(teams) or [_vision()], queueing=queueing or {"enabled": False})


def _experiment(name: str, team: str | None = "vision", **changes: Any) -> dict[str, Any]:
    """The workload-1 MPIJob without its dataset, in ``team``."""
    experiment = job(datasets=[], **changes)
    experiment["name"] = name
    if team is not None:
        experiment["team"] = team
    return experiment


def _workers(replicas: int, gpus: int, **resources: Any) -> dict[str, Any]:
    return {"replicas": replicas, "gpus": gpus, "resources": resources}


def _failures(
    deploy: Deployer, *experiments: dict[str, Any], config: dict[str, Any] | None = None
) -> list[str]:
    with pytest.raises(PlanCheckError, match="plan-time check") as caught:
        deploy(*experiments, config=config or _config())
    return list(caught.value.failures)


def _own_warnings(deployment: Deployment) -> list[str]:
    """Warnings of this module's checks (not the generic ones of checks/warning_rules.py)."""
    generic = (
        "without a memory limit",
        "the containers get full access",
        "share the node's",
        "Open MPI ranks per pod",
    )
    return [str(w) for w in deployment.warnings if not any(g in w.message for g in generic)]


def test_a_job_larger_than_its_team_quota(deploy: Deployer) -> None:
    experiment = _experiment("resnet", worker=_workers(4, 4, limits={"memory": "64Gi"}))
    assert _failures(deploy, experiment) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 16 GPUs "
        "(1 launcher + 4 worker x 4 GPUs), but team vision has a quota of 8 GPUs "
        f"(trainstack:teams[0].quota.gpu in {STACK}): its ResourceQuota refuses the pods "
        "beyond that",
    ]


def test_memory_counts_requests_defaults_and_limits(deploy: Deployer) -> None:
    # 2 workers x 300Gi (a limit alone is also the request) + the launcher's 8Gi default
    # request; limits: 2 x 300Gi + the launcher's 32Gi default limit.
    experiment = _experiment("big", worker=_workers(2, 1, limits={"memory": "300Gi"}))
    assert _failures(deploy, experiment, config=_config()) == [
        "experiments/00-big.yaml: experiment big: team: the job needs 608Gi memory "
        "(1 launcher + 2 worker x 1 GPUs), but team vision has a quota of 512Gi memory "
        f"(trainstack:teams[0].quota.memory in {STACK}): its ResourceQuota refuses the pods "
        "beyond that",
        "experiments/00-big.yaml: experiment big: team: the job needs 632Gi memory limits "
        "(1 launcher + 2 worker x 1 GPUs), but team vision has a quota of 512Gi memory "
        f"limits (trainstack:teams[0].quota.memory in {STACK}): its ResourceQuota refuses "
        "the pods beyond that",
    ]


def test_experiments_created_at_once_exceed_the_quota_together(deploy: Deployer) -> None:
    experiments = [_experiment(name, worker=_workers(2, 2)) for name in ("a", "b", "c")]
    assert _failures(deploy, *experiments) == [
        f"{STACK}: experiment (all of team vision): trainstack:teams[0].quota.gpu: "
        "`pulumi up` creates 3 experiments of team vision at once and they need 12 GPUs "
        "together (a 4, b 4, c 4), above the 8 GPUs its ResourceQuota allows: pods beyond it "
        "are refused and jobs start half-way, holding GPUs they cannot use; run fewer at "
        "once, or enable trainstack:queueing",
    ]


def test_queued_experiments_wait_for_each_other(deploy: Deployer) -> None:
    experiments = [_experiment(name, worker=_workers(2, 2)) for name in ("a", "b", "c")]
    deployment = deploy(*experiments, config=_config(queueing={"enabled": True}))
    assert all(e.queued for e in deployment.experiments)
    assert _own_warnings(deployment) == [
        f"{STACK}: experiment (all of team vision): trainstack:teams[0].quota.gpu: the 3 "
        "experiments of team vision need 12 GPUs together (a 4, b 4, c 4), above its 8 GPUs: "
        "Kueue admits each of the 3 queued one(s) whole when quota frees up, so they run one "
        "after another, not side by side [queuedTogether]",
    ]


def test_a_queued_job_beyond_what_the_team_can_borrow(deploy: Deployer) -> None:
    queueing = {"enabled": True, "cohort": "shared-gpus"}
    experiment = _experiment("resnet", worker=_workers(4, 4))
    assert _failures(deploy, experiment, config=_config(_vision(), NLP, queueing=queueing)) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 16 GPUs "
        "(1 launcher + 4 worker x 4 GPUs), but team vision can hold at most 12 GPUs "
        f"(trainstack:teams[0].quota.gpu in {STACK}, with what it may borrow): Kueue never "
        "admits it",
    ]


def test_a_queued_job_that_must_borrow(deploy: Deployer) -> None:
    queueing = {"enabled": True, "cohort": "shared-gpus"}
    experiment = _experiment("resnet", worker=_workers(3, 4))
    deployment = deploy(experiment, config=_config(_vision(), NLP, queueing=queueing))
    assert _own_warnings(deployment) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 12 GPUs, above "
        f"team vision's own 8 GPUs (trainstack:teams[0].quota.gpu in {STACK}): Kueue admits "
        "it only while other teams of cohort shared-gpus leave 4 GPUs idle [borrowing]",
    ]


def test_host_network_in_a_baseline_team(deploy: Deployer) -> None:
    experiment = _experiment(
        "horovod", worker=_workers(1, 4), network={"hostNetwork": True}, mpi={"sshPort": 2222}
    )
    assert _failures(deploy, experiment) == [
        "experiments/00-horovod.yaml: experiment horovod: job.network.hostNetwork: true (host "
        "networking), but team vision's namespace vision enforces Pod Security baseline "
        f"(trainstack:teams[0].podSecurity in {STACK}): the API server refuses these pods "
        "when the operator creates them; drop it, or let the team run such pods with "
        "podSecurity: privileged",
    ]
    allowed = _config(_vision(podSecurity="privileged"))
    assert deploy(experiment, config=allowed).experiments[0].team == "vision"


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"security": {"privileged": True}}, "job.security.privileged"),
        ({"security": {"hostPID": True}}, "job.security.hostPID"),
        ({"hostPaths": [{"path": "/mnt/cache", "mountPath": "/cache"}]}, "job.hostPaths"),
        ({"security": {"capabilities": {"add": ["SYS_ADMIN"]}}}, "job.security.capabilities.add"),
        ({"security": {"seccompProfile": "Unconfined"}}, "job.security.seccompProfile"),
        (
            {"mpi": {"launcher": {"security": {"capabilities": {"add": ["SYS_PTRACE"]}}}}},
            "job.mpi.launcher.security.capabilities.add",
        ),
    ],
)
def test_what_baseline_refuses(deploy: Deployer, changes: dict[str, Any], key: str) -> None:
    (failure,) = _failures(deploy, _experiment("risky", worker=_workers(1, 1), **changes))
    assert f"experiment risky: {key}: " in failure
    assert "enforces Pod Security baseline" in failure


def test_no_limits_and_no_team_defaults(deploy: Deployer) -> None:
    team = _vision(containerDefaults={"requests": {"cpu": "2", "memory": "8Gi"}})
    experiment = _experiment("bare", worker=_workers(1, 1, requests={"memory": "16Gi"}))
    assert _failures(deploy, experiment, config=_config(team)) == [
        "experiments/00-bare.yaml: experiment bare: job.mpi.launcher.resources.limits.memory: "
        "unset on launcher pods, and team vision has no default "
        f"(trainstack:teams[0].containerDefaults.limits.memory in {STACK}): its ResourceQuota "
        "caps limits.memory, so the API server refuses pods without it; set it, or give the "
        "team a default",
        "experiments/00-bare.yaml: experiment bare: job.worker.resources.limits.memory: "
        "unset on worker pods, and team vision has no default "
        f"(trainstack:teams[0].containerDefaults.limits.memory in {STACK}): its ResourceQuota "
        "caps limits.memory, so the API server refuses pods without it; set it, or give the "
        "team a default",
    ]


def test_a_request_above_the_default_limit(deploy: Deployer) -> None:
    experiment = _experiment("greedy", worker=_workers(1, 1, requests={"memory": "64Gi"}))
    assert _failures(deploy, experiment) == [
        "experiments/00-greedy.yaml: experiment greedy: job.worker.resources.limits.memory: "
        "unset on worker pods, so team vision's default limit 32Gi applies "
        f"(trainstack:teams[0].containerDefaults.limits.memory in {STACK}), below the request "
        "64Gi: the API server refuses the pods; set a limit",
    ]


def test_shared_memory_is_memory_of_the_pod(deploy: Deployer) -> None:
    experiment = _experiment(
        "shm", worker=_workers(2, 1), shm={"enabled": True, "sizeLimit": "40Gi"}
    )
    assert _own_warnings(deploy(experiment, config=_config())) == [
        "experiments/00-shm.yaml: experiment shm: job.shm.sizeLimit: 40Gi of /dev/shm is "
        "memory charged to each worker pod, whose memory limit is 32Gi: the pod is OOM-killed "
        "before /dev/shm is full; raise the limit above sizeLimit plus what the process needs "
        "[shmOverMemory]",
    ]


def test_a_job_kueue_cannot_hold(deploy: Deployer) -> None:
    experiment = _experiment(
        "mnist", framework="tensorflow", worker=_workers(2, 1), security={"seccompProfile": None}
    )
    experiment["job"].pop("workingDir")
    config = _config(queueing={"enabled": True})
    config["trainstack:operators"] = {"arena": {"version": "0.14.2"}}
    deployment = deploy(experiment, config=config)
    assert not deployment.experiments[0].queued
    assert _own_warnings(deployment) == [
        "experiments/00-mnist.yaml: experiment mnist: job.framework: not queued: "
        "operators.arena (ACK ack-arena 0.14.2) serves tfjobs.kubeflow.org without "
        "runPolicy.suspend, so Kueue cannot hold the job; it starts at `pulumi up`, outside "
        "team vision's queue, and Kueue does not count its 3 GPU(s); serve "
        "tfjobs.kubeflow.org with operators.trainingOperator (version 1.9.4) instead of "
        "operators.arena to queue it [notQueued]",
    ]
    # Following the advice: the job is queued and the warning is gone.
    config["trainstack:operators"] = {"trainingOperator": {"version": "1.9.4"}}
    deployment = deploy(experiment, config=config)
    assert deployment.experiments[0].queued
    assert _own_warnings(deployment) == []


def test_a_known_defect_of_the_serving_operator_under_kueue_is_a_warning(
    deploy: Deployer,
) -> None:
    config = _config(queueing={"enabled": True})
    config["trainstack:operators"]["mpiOperator"]["version"] = "0.6.0"
    deployment = deploy(_experiment("resnet", worker=_workers(2, 1)), config=config)
    assert deployment.experiments[0].queued
    assert _own_warnings(deployment) == [
        "experiments/00-resnet.yaml: experiment resnet: job.framework: queued with "
        "operators.mpiOperator (Kubeflow mpi-operator 0.6.0): mpi-operator before 0.8.0 does "
        "not pass the node selectors and annotations Kueue assigns at admission to the "
        "launcher's Job and pod (kubernetes-sigs/kueue#9330): the launcher may land outside "
        "the admitted flavor; use mpiOperator 0.8.1 [queueCaveat]",
    ]


def test_rdma_is_not_covered_by_the_queue(deploy: Deployer) -> None:
    experiment = _experiment(
        "rdma",
        worker=_workers(2, 4),
        network={"hostNetwork": True, "rdma": {"enabled": True}},
        mpi={"sshPort": 2222},
    )
    team = _vision(podSecurity="privileged")
    assert _failures(deploy, experiment, config=_config(team, queueing={"enabled": True})) == [
        "experiments/00-rdma.yaml: experiment rdma: job.network.rdma.enabled: training pods "
        "request rdma/hca, which team vision's ClusterQueue does not cover (it covers cpu, "
        "memory and nvidia.com/gpu): Kueue never admits the job",
    ]


def test_experiments_without_a_team_are_not_checked(deploy: Deployer) -> None:
    experiment = _experiment("free", team=None, worker=_workers(4, 4))
    assert deploy(experiment, config=_config()).experiments[0].team is None
