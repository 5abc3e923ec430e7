"""What ends a job whose preflight fails, and within how long: every framework the chart
renders, on every operator that serves it, read from the rendered job's fields.

Each expected bound is worked out by hand from the rendered fields and the operators'
documented behaviour (docs/preflight.md#when-a-check-fails): the kubelet restarts a
container after 10, 20, 40... s (cap 300); a batch Job replaces a failed pod after 10, 20,
40... s (cap 600) and counts OnFailure restarts of Pending pods; Kueue requeues after 60,
120, 240... s.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import job_values, render_job
from trainstack.checks.preflight_end import Ending, Kueue, endings
from trainstack.operators import registry

ARENA = {"operatorApi": "arena", "security": {"seccompProfile": None}}
MPI_OPERATOR = registry.release("mpiOperator", "0.8.2")
ACK_ARENA = registry.release("arena", "0.14.2")
TRAINING_OPERATOR = registry.release("trainingOperator", "1.9.4")
TRAINER = registry.release("trainer", "2.3.0")
KUEUE = Kueue(timeout=600, requeue_limit=3)


def _facts(release: Any, crd: str) -> Any:
    served = release.served(crd)
    assert served is not None and served.failure is not None
    return served.failure


MPI_V2 = _facts(MPI_OPERATOR, "mpijobs.kubeflow.org")
MPI_V1ALPHA1 = _facts(ACK_ARENA, "mpijobs.kubeflow.org")
TF = _facts(TRAINING_OPERATOR, "tfjobs.kubeflow.org")
PYTORCH = _facts(TRAINING_OPERATOR, "pytorchjobs.kubeflow.org")
ARENA_TF = _facts(ACK_ARENA, "tfjobs.kubeflow.org")
ARENA_PYTORCH = _facts(ACK_ARENA, "pytorchjobs.kubeflow.org")
TRAINJOB = _facts(TRAINER, "trainjobs.trainer.kubeflow.org")


def _ends(
    values: dict[str, Any], facts: Any, kueue: Kueue | None = None, **fields: Any
) -> dict[str, tuple[int | None, bool]]:
    """{role: (bound, line kept)} of the rendered job (``fields`` set in its spec, as a
    newer chart renders them)."""
    job = render_job(values, release="job")
    job["spec"].update(fields)
    found: list[Ending] = endings(job, facts, kueue)
    return {ending.role: (ending.seconds, ending.kept) for ending in found}


def _mpi(**values: Any) -> dict[str, Any]:
    return job_values("mpi", **{"worker": {"replicas": 2, "gpus": 4}, **values})


# MPIJob v2beta1 (mpi-operator): the launcher is a Job, made with the workers
# (launcherCreationPolicy AtStartup, as the chart renders it for an unqueued job), and it
# waits up to 600 s for the workers' names.
def test_mpijob_v2beta1_ends_through_its_launchers_job() -> None:
    # Never (the default), backoffLimit unset: the Job's 6, so 7 pods, 10+...+320 s apart,
    # each waiting 600 s for the names: 7 x 600 + 630 = 4830 s; the failed worker's line
    # is kept (cleanPodPolicy Running deletes running pods only)
    assert _ends(_mpi(), MPI_V2) == {"launcher": (4830, True), "worker": (4830, True)}
    # arenaSubmit: backoffLimit 0, one launcher pod, one wait
    assert _ends(_mpi(arenaSubmit=True), MPI_V2)["launcher"] == (600, True)
    # OnFailure, backoffLimit 2: 2 restarts 10+20 s apart, 3 waits: 3 x 600 + 30 = 1830 s;
    # the Job deletes the launcher's pod
    retried = _mpi(runPolicy={"restartPolicy": "OnFailure", "backoffLimit": 2})
    assert _ends(retried, MPI_V2)["launcher"] == (1830, False)


def test_mpijob_v2beta1_waiting_for_ready_workers_never_ends_unqueued() -> None:
    # WaitForWorkersReady (what the chart renders for queued jobs only): a failed worker is
    # never Ready, no launcher is made (L677-679), and nothing ends an unqueued job
    waiting = _ends(_mpi(), MPI_V2, launcherCreationPolicy="WaitForWorkersReady")
    assert waiting == {"launcher": (4830, True), "worker": (None, False)}


def test_mpijob_v2beta1_made_at_startup_ends_through_its_launcher() -> None:
    """With AtStartup the launcher is made with the workers, cannot resolve the failed one,
    and fails."""
    started = _ends(_mpi(arenaSubmit=True), MPI_V2, launcherCreationPolicy="AtStartup")
    assert started == {"launcher": (600, True), "worker": (600, True)}
    # a worker that restarts in place is deleted at the end with its line
    again = _mpi(
        worker={"replicas": 2, "restartPolicy": "OnFailure"}, runPolicy={"backoffLimit": 0}
    )
    assert _ends(again, MPI_V2, launcherCreationPolicy="AtStartup")["worker"] == (600, False)
    # All deletes the failed worker
    cleaned = _mpi(arenaSubmit=True, runPolicy={"cleanPodPolicy": "All"})
    assert _ends(cleaned, MPI_V2, launcherCreationPolicy="AtStartup")["worker"] == (600, False)


def test_mpijob_v2beta1_deadline_bounds_its_launcher_only() -> None:
    deadline = _mpi(runPolicy={"activeDeadlineSeconds": 600})
    assert _ends(deadline, MPI_V2) == {"launcher": (600, True), "worker": (600, True)}
    waiting = _ends(deadline, MPI_V2, launcherCreationPolicy="WaitForWorkersReady")
    assert waiting == {"launcher": (600, True), "worker": (None, False)}


def test_mpijob_v2beta1_queued_gets_its_launcher_at_admission() -> None:
    # queued, the launcher is made at admission (mpi-operator#868) and fails on the worker;
    # 7 launcher pods take longer than one admission, so Kueue's bound, 4 x 600 s + 60 +
    # 120 + 240 s, ends it first
    assert _ends(_mpi(), MPI_V2, KUEUE) == {"launcher": (2821, True), "worker": (2821, True)}
    # within one admission (Kueue's 600 s), its own way ends it: one 600 s wait
    assert _ends(_mpi(arenaSubmit=True), MPI_V2, KUEUE) == {
        "launcher": (600, True),
        "worker": (600, True),
    }


# MPIJob v1alpha1 (ack-arena's fork): workers only report, the launcher Job fails on it.
def test_mpijob_v1alpha1_ends_through_its_launcher_reading_the_workers() -> None:
    values = _mpi(**ARENA, command="run")
    # Never, the fork's backoffLimit 6: 7 pods 10+...+320 s apart; no name wait
    assert _ends(values, MPI_V1ALPHA1) == {"launcher": (630, True), "worker": (630, True)}
    arena = _mpi(**ARENA, command="run", arenaSubmit=True)
    assert _ends(arena, MPI_V1ALPHA1) == {"launcher": (0, True), "worker": (0, True)}
    retried = _mpi(**ARENA, command="run", runPolicy={"restartPolicy": "OnFailure"})
    assert _ends(retried, MPI_V1ALPHA1)["worker"] == (10 + 20 + 40 + 80 + 160 + 300, False)


# TFJob and PyTorchJob on training-operator v1.9.4: restarts before Running are not counted.
@pytest.mark.parametrize(("framework", "facts"), [("tensorflow", TF), ("pytorch", PYTORCH)])
def test_training_operator_bounds_only_never_deadlines_and_kueue(
    framework: str, facts: Any
) -> None:
    values = job_values(framework, worker={"replicas": 2})
    assert set(_ends(values, facts).values()) == {(None, False)}
    deadline = job_values(
        framework, worker={"replicas": 2}, runPolicy={"activeDeadlineSeconds": 900}
    )
    assert set(_ends(deadline, facts).values()) == {(900, False)}
    # even with a backoffLimit: the pod never runs, its restarts are never counted
    limited = job_values(framework, worker={"replicas": 2}, runPolicy={"backoffLimit": 1})
    assert set(_ends(limited, facts).values()) == {(None, False)}
    never = job_values(framework, worker={"replicas": 2}, runPolicy={"restartPolicy": "Never"})
    assert set(_ends(never, facts).values()) == {(0, True)}
    assert set(_ends(values, facts, KUEUE).values()) == {(2821, False)}


def test_arena_submit_pytorch_workers_restart_forever_on_training_operator() -> None:
    values = job_values("pytorch", arenaSubmit=True, worker={"replicas": 3})
    assert _ends(values, PYTORCH) == {"master": (0, True), "worker": (None, False)}


# ack-arena's tf-operator and pytorch-operator count restarts of Pending pods, with a limit.
@pytest.mark.parametrize(
    ("framework", "facts"), [("tensorflow", ARENA_TF), ("pytorch", ARENA_PYTORCH)]
)
def test_ack_arenas_operators_count_pending_restarts_with_a_limit(
    framework: str, facts: Any
) -> None:
    values = job_values(framework, **ARENA, worker={"replicas": 2})
    assert set(_ends(values, facts).values()) == {(None, False)}
    limited = job_values(framework, **ARENA, worker={"replicas": 2}, runPolicy={"backoffLimit": 3})
    assert set(_ends(limited, facts).values()) == {(10 + 20 + 40, False)}
    deadline = job_values(
        framework, **ARENA, worker={"replicas": 2}, runPolicy={"activeDeadlineSeconds": 60}
    )
    assert set(_ends(deadline, facts).values()) == {(60, False)}


def test_arena_submit_on_ack_arena() -> None:
    # PyTorch: backoffLimit 0, so the first restart of a worker ends it
    pytorch = job_values("pytorch", **ARENA, arenaSubmit=True, worker={"replicas": 3})
    assert _ends(pytorch, ARENA_PYTORCH) == {"master": (0, True), "worker": (10, False)}
    # TF renders no backoffLimit: a worker beside a chief restarts forever
    tf = job_values("tensorflow", **ARENA, arenaSubmit=True, worker={"replicas": 2})
    assert _ends(tf, ARENA_TF) == {"chief": (0, True), "worker": (None, False)}


# TrainJob (Trainer v2.3.0 on JobSet): the preflight runs in the trainer's container.
def test_trainjob_ends_when_its_jobs_restarts_reach_the_default_limit() -> None:
    values = job_values("trainjob", command=["python", "train.py"])
    # OnFailure (JobSet's default) and backoffLimit 6 (the Job's): 10+20+40+80+160+300 s
    assert _ends(values, TRAINJOB) == {"trainer": (610, False)}
    deadline = job_values(
        "trainjob", command=["python", "train.py"], runPolicy={"activeDeadlineSeconds": 120}
    )
    assert _ends(deadline, TRAINJOB) == {"trainer": (120, False)}


def test_kueues_bound_is_its_timeouts_and_requeue_delays() -> None:
    assert Kueue(600, 3).bound == 2821  # 2400 + (60 + 120 + 240) * 1.0001, up
    assert Kueue(600, 0).bound == 600
    # the 7th and 8th requeues wait the 3600 s cap, not 3840 and 7680
    waits = 60 + 120 + 240 + 480 + 960 + 1920 + 3600 + 3600
    assert Kueue(60, 8).bound == 9 * 60 + waits + 2  # jitter: 1.098 s, rounded up
