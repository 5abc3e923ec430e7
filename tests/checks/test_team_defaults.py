"""Plan-time checks of a team's container defaults: amounts nothing sets, /dev/shm."""

from __future__ import annotations

from tests.checks.team_cases import (
    STACK,
    failures,
    own_warnings,
    team_config,
    team_experiment,
    vision,
    workers,
)
from tests.experiment_helpers import Deployer


def test_no_limits_and_no_team_defaults(deploy: Deployer) -> None:
    team = vision(containerDefaults={"requests": {"cpu": "2", "memory": "8Gi"}})
    experiment = team_experiment("bare", worker=workers(1, 1, requests={"memory": "16Gi"}))
    assert failures(deploy, experiment, config=team_config(team)) == [
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
    experiment = team_experiment("greedy", worker=workers(1, 1, requests={"memory": "64Gi"}))
    assert failures(deploy, experiment) == [
        "experiments/00-greedy.yaml: experiment greedy: job.worker.resources.limits.memory: "
        "unset on worker pods, so team vision's default limit 32Gi applies "
        f"(trainstack:teams[0].containerDefaults.limits.memory in {STACK}), below the request "
        "64Gi: the API server refuses the pods; set a limit",
    ]


def test_shared_memory_is_memory_of_the_pod(deploy: Deployer) -> None:
    experiment = team_experiment(
        "shm", worker=workers(2, 1), shm={"enabled": True, "sizeLimit": "40Gi"}
    )
    assert own_warnings(deploy(experiment, config=team_config())) == [
        "experiments/00-shm.yaml: experiment shm: job.shm.sizeLimit: 40Gi of /dev/shm is "
        "memory charged to each worker pod, whose memory limit is 32Gi: the pod is OOM-killed "
        "before /dev/shm is full; raise the limit above sizeLimit plus what the process needs "
        "[shmOverMemory]",
    ]


def test_an_arena_submit_job_gets_no_cpu_limit_arena_did_not_give(deploy: Deployer) -> None:
    """Arena's chart sets no CPU limit on a job that asks none; the team's default would
    throttle its workers (the launcher trains nothing: its limit is left alone)."""
    arena = team_experiment("arena", arenaSubmit=True, worker=workers(2, 4))
    assert failures(deploy, arena) == [
        "experiments/00-arena.yaml: experiment arena: job.worker.resources.limits.cpu: unset "
        "on worker pods, so team vision's default CPU limit 8 applies "
        f"(trainstack:teams[0].containerDefaults.limits.cpu in {STACK}): arenaSubmit renders "
        "what arena submit did, and Arena's chart sets no CPU limit on a job that asks for "
        "none (kubeflow/arena v0.15.5 charts/mpijob/templates/mpijob.yaml:230-272); a limit "
        "throttles its training processes. Drop the team's default CPU limit, or set the "
        "role's (arena submit's --cpu)",
    ]
    own = team_experiment("own", arenaSubmit=True, worker=workers(2, 4, limits={"cpu": "20"}))
    no_default = vision(
        containerDefaults={"requests": {"cpu": "2", "memory": "8Gi"}, "limits": {"memory": "32Gi"}}
    )
    assert not any("limits.cpu" in str(w) for w in deploy(own, config=team_config()).warnings)
    deploy(arena, config=team_config(no_default))
