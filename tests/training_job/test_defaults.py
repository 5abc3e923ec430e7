"""What a null key means: trainstack's default, or Arena's with arenaSubmit; a set key wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from trainstack.training_job import TrainingJob
from trainstack.training_job.defaults import (
    backoff_limit,
    clean_pod_policy,
    pull_policy,
    restart_policy,
    working_dir,
)
from trainstack.training_job.frameworks import FrameworkSpec, framework
from trainstack.training_job.frameworks.mpi.settings import mounts_on_launcher
from trainstack.training_job.frameworks.run_defaults import (
    RestartDefaults,
    RoleRestart,
    RunDefaults,
)

IMAGE = {"name": "registry.example.com/train:1"}


def _job(**values: Any) -> TrainingJob:
    return TrainingJob.model_validate({"image": IMAGE, **values})


def test_arenas_defaults_for_what_the_job_leaves_null() -> None:
    trainstack, arena = _job(), _job(arenaSubmit=True)
    assert (working_dir(trainstack), working_dir(arena)) == (None, "/root")
    assert (pull_policy(trainstack), pull_policy(arena)) == ("IfNotPresent", "Always")
    assert (mounts_on_launcher(trainstack), mounts_on_launcher(arena)) == (True, False)
    # Arena's All on ack-arena's MPIJob v1alpha1; on v2beta1 Running keeps a failed worker
    fork = _job(
        arenaSubmit=True, operatorApi="arena", security={"seccompProfile": None}, command="run"
    )
    assert [clean_pod_policy(job) for job in (trainstack, arena, fork)] == [
        "Running",
        "Running",
        "All",
    ]
    assert (backoff_limit(trainstack), backoff_limit(arena)) == (None, 0)
    # a launcher is a batch Job: a new pod per retry, the failed one kept
    assert restart_policy(trainstack, "launcher", None) == "Never"
    assert restart_policy(trainstack, "worker", None) == "Never"
    assert restart_policy(_job(framework="pytorch"), "master", None) == "OnFailure"
    assert restart_policy(arena, "launcher", None) == "Never"
    assert restart_policy(arena, "worker", None) == "Never"


def test_what_the_job_sets_wins() -> None:
    job = _job(
        arenaSubmit=True,
        workingDir="/data",
        image={**IMAGE, "pullPolicy": "IfNotPresent"},
        mpi={"mountsOnLauncher": True},
        runPolicy={"cleanPodPolicy": "None", "backoffLimit": 2, "restartPolicy": "OnFailure"},
    )
    assert (working_dir(job), pull_policy(job), mounts_on_launcher(job)) == (
        "/data",
        "IfNotPresent",
        True,
    )
    assert (clean_pod_policy(job), backoff_limit(job)) == ("None", 2)
    assert restart_policy(job, "launcher", None) == "OnFailure"
    assert restart_policy(job, "launcher", "Never") == "Never"


def test_arenas_restart_policies_and_retries_per_framework() -> None:
    tf = _job(framework="tensorflow", arenaSubmit=True)
    assert [restart_policy(tf, role, None) for role in ("chief", "worker", "ps")] == [
        "Never",
        "OnFailure",
        "Never",
    ]
    assert backoff_limit(tf) is None  # Arena's TFJob chart renders no backoffLimit
    assert clean_pod_policy(tf) == "Running"
    alone = _job(framework="tensorflow", arenaSubmit=True, tensorflow={"chief": {"replicas": 0}})
    assert restart_policy(alone, "worker", None) == "Never"
    pytorch = _job(framework="pytorch", arenaSubmit=True)
    assert [restart_policy(pytorch, role, None) for role in ("master", "worker")] == [
        "Never",
        "OnFailure",
    ]


def test_restart_clean_up_and_retries_follow_the_spec_not_the_name(
    respec: Callable[..., FrameworkSpec],
) -> None:
    # PyTorch's roles with other defaults, under PyTorch's name
    arena = framework("pytorch").arena
    assert arena is not None
    beside = RestartDefaults("OnFailure", (RoleRestart("master", "Never", beside="worker"),))
    respec(
        "pytorch",
        run_defaults=RunDefaults(RestartDefaults("ExitCode"), pinned=(("worker", "Never"),)),
        arena=replace(
            arena, restart=beside, backoff_limit=None, clean_pod_policy=(("kubeflow", "All"),)
        ),
    )
    job = _job(framework="pytorch", worker={"replicas": 3})
    assert [restart_policy(job, role, None) for role in ("master", "worker")] == [
        "ExitCode",
        "Never",
    ]
    arena_job = _job(framework="pytorch", arenaSubmit=True, worker={"replicas": 3})
    assert restart_policy(arena_job, "master", None) == "Never"  # beside the Workers
    alone = _job(framework="pytorch", arenaSubmit=True, worker={"replicas": 1})
    assert restart_policy(alone, "master", None) == "OnFailure"  # no Worker: the default
    assert (backoff_limit(arena_job), clean_pod_policy(arena_job)) == (None, "All")
