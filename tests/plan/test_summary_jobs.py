"""The plan states, per experiment, what ends its job when a preflight fails, and when."""

from __future__ import annotations

from dataclasses import replace

from trainstack.config.loader import LoadedStack
from trainstack.plan.model import Plan
from trainstack.plan.summary_jobs import (
    HEADING,
    RESOURCES_HEADING,
    preflight_lines,
    resource_lines,
)


def _lines(plan: Plan) -> dict[str, str]:
    assert isinstance(plan.stack, LoadedStack)
    heading, *lines = preflight_lines(plan, plan.stack)
    assert heading == HEADING
    return dict(line.strip().split(": ", 1) for line in lines)


def test_workload_1_ends_within_its_launchers_one_wait(example_plans: dict[str, Plan]) -> None:
    lines = _lines(example_plans["aiacc"])
    # queued, its launcher is made at admission; arenaSubmit: the launcher's backoffLimit 0,
    # one pod waiting 600 s for the workers
    assert lines["imagenet-tensorflow"].startswith("within 600 s, its line kept (launcher: ")
    assert "worker: the launcher cannot resolve it" in lines["imagenet-tensorflow"]
    # the scaling matrix: 7 launcher pods; Kueue (10 min, 3 requeues) ends it first
    assert lines["keras-lstm-1x1"].startswith("within 2821 s, its line kept")
    assert lines["keras-lstm-1x1"].endswith(
        "else Kueue deactivates it after 4 podsReadyTimeout(s) of 600 s and 3 requeue(s))"
    )
    # training-operator retries a failed init container forever: only Kueue ends these,
    # deleting their pods
    assert lines["tf-multiworker-mnist"].startswith(
        "within 2821 s, the line lost with the pods of chief, worker"
    )


def test_a_job_nothing_ends_is_said_with_the_fix(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["aiacc"]
    assert isinstance(plan.stack, LoadedStack)
    queueing = plan.stack.config.queueing.model_copy(update={"enabled": False})
    config = plan.stack.config.model_copy(update={"queueing": queueing})
    unqueued = replace(plan.stack, config=config)
    lines = dict(line.strip().split(": ", 1) for line in preflight_lines(plan, unqueued)[1:])

    assert lines["pytorch-ddp-mnist"].startswith("NEVER ends when master, worker fails")
    assert lines["pytorch-ddp-mnist"].endswith("or queue the team's jobs (trainstack:queueing)")
    # unqueued, mpi-operator makes no launcher while a worker has failed
    assert lines["imagenet-tensorflow"].startswith("NEVER ends when worker fails")
    assert lines["imagenet-tensorflow"].endswith(
        "which fails on the worker, and Kueue bounds the job"
    )


def test_workload_1_gets_arenas_resources_plus_the_memory_its_team_requires(
    example_plans: dict[str, Plan],
) -> None:
    plan = example_plans["aiacc"]
    assert isinstance(plan.stack, LoadedStack)
    heading, *lines = resource_lines(plan, plan.stack)
    assert heading == RESOURCES_HEADING
    shown = dict(line.strip().split(": ", 1) for line in lines)
    # no CPU limit (team vision sets no default one): a memory limit, which its
    # ResourceQuota requires, and requests from the team's LimitRange
    assert shown["imagenet-tensorflow"] == (
        "launcher x1: requests cpu 4*, memory 16Gi*; limits memory 48Gi* | worker x4: requests "
        "cpu 4*, memory 16Gi*, nvidia.com/gpu 4; limits memory 48Gi*, nvidia.com/gpu 4; "
        "arenaSubmit: Arena's chart sets none of the * amounts (kubeflow/arena v0.15.5 "
        "charts/mpijob/templates/mpijob.yaml:230-272)"
    )
    assert shown["tf-multiworker-mnist"].startswith("chief x1: requests cpu 4, memory 16Gi")
