"""The chart's validateValues and the model's rules give the same answer, word for word.

Each case is checked both ways: values the model rejects make the chart fail with the
same problems, and values the model accepts render.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import CHART_DIR, job_values
from trainstack.chart.render import render_manifests
from trainstack.errors import ChartError, ValuesError
from trainstack.training_job import release_name_problems, validate_values

FAIL_HEADER = "invalid values for the training-job chart"
DATA = {"claimName": "data", "mountPath": "/data"}

INCONSISTENT = {
    "mpi without workers": job_values("mpi", worker={"replicas": 0}),
    "tensorflow without chief or worker": job_values(
        "tensorflow", worker={"replicas": 0}, tensorflow={"chief": {"replicas": 0}}
    ),
    "mpi on the host network with port 22": job_values("mpi", network={"hostNetwork": True}),
    "another ssh port with Intel MPI": job_values(
        "mpi", mpi={"sshPort": 2222, "implementation": "Intel"}
    ),
    "the host network with MPICH": job_values(
        "mpi", network={"hostNetwork": True}, mpi={"sshPort": 2222, "implementation": "MPICH"}
    ),
    "ExitCode with mpi": job_values("mpi", runPolicy={"restartPolicy": "ExitCode"}),
    "one claim twice": job_values(
        "pytorch", datasets=[DATA, {"claimName": "data", "mountPath": "/other"}]
    ),
    "a dataset over /dev/shm": job_values(
        "pytorch", datasets=[{"claimName": "data", "mountPath": "/dev/shm/"}]
    ),
    "a dataset over the ssh keys": job_values(
        "mpi", datasets=[{"claimName": "data", "mountPath": "/root/.ssh"}]
    ),
    "a dataset over the hostfile": job_values(
        "mpi", datasets=[{"claimName": "data", "mountPath": "/etc/mpi"}]
    ),
    "results over a dataset": job_values(
        "tensorflow", datasets=[DATA], results={"claimName": "out", "mountPath": "/data//"}
    ),
    "two host paths at one place": job_values(
        "mpi",
        hostPaths=[
            {"path": "/mnt/a", "mountPath": "/cache"},
            {"path": "/mnt/b", "mountPath": "/cache"},
        ],
    ),
    "a gang larger than the job": job_values(
        "tensorflow",
        worker={"replicas": 2},
        tensorflow={"ps": {"replicas": 1}},
        scheduling={"gang": {"enabled": True, "minAvailable": 5}},
    ),
    "everything at once": job_values(
        "mpi",
        worker={"replicas": 0},
        network={"hostNetwork": True},
        runPolicy={"restartPolicy": "ExitCode"},
        datasets=[
            {"claimName": "a", "mountPath": "/dev/shm"},
            {"claimName": "a", "mountPath": "/x/"},
            {"claimName": "b", "mountPath": "/x"},
        ],
        scheduling={"gang": {"enabled": True, "minAvailable": 5}},
    ),
}

CONSISTENT = {
    "mountsOnLauncher without datasets": job_values("mpi", mpi={"mountsOnLauncher": True}),
    "a tensorflow chief alone": job_values("tensorflow", worker={"replicas": 0}),
    "tensorflow workers without chief": job_values(
        "tensorflow", worker={"replicas": 2}, tensorflow={"chief": {"replicas": 0}}
    ),
    "a pytorch master alone": job_values("pytorch", worker={"replicas": 0}),
    "mpi on the host network with port 2222": job_values(
        "mpi", network={"hostNetwork": True}, mpi={"sshPort": 2222}
    ),
    "a dataset at /dev/shm when shm is off": job_values(
        "pytorch", shm={"enabled": False}, datasets=[{"claimName": "d", "mountPath": "/dev/shm"}]
    ),
    "/root/.ssh is only reserved for mpi": job_values(
        "tensorflow", datasets=[{"claimName": "d", "mountPath": "/root/.ssh"}]
    ),
    "results without a claim take no path": job_values(
        "pytorch", datasets=[{"claimName": "d", "mountPath": "/results"}]
    ),
    "one claim mounted as a dataset and as results": job_values(
        "pytorch", datasets=[DATA], results={"claimName": "data", "subPath": "out"}
    ),
    "a gang of exactly the job": job_values(
        "mpi", worker={"replicas": 3}, scheduling={"gang": {"enabled": True, "minAvailable": 4}}
    ),
    "ExitCode with pytorch": job_values("pytorch", runPolicy={"restartPolicy": "ExitCode"}),
    "Intel MPI on port 22": job_values("mpi", mpi={"implementation": "Intel"}),
}


def model_problems(values: dict[str, Any], release: str = "job") -> set[str]:
    """The problems trainstack reports, as the lines it prints."""
    try:
        job = validate_values(values, "test")
    except ValuesError as err:
        return {str(problem) for problem in err.problems}
    return {str(problem) for problem in release_name_problems(release, job)}


def chart_problems(values: dict[str, Any], release: str = "job") -> set[str]:
    """The problems the chart's validateValues reports, one per listed line."""
    try:
        render_manifests(values, release=release, namespace="team", chart_dir=CHART_DIR)
    except ChartError as err:
        message = str(err)
        assert FAIL_HEADER in message, message
        return set(message.split(FAIL_HEADER, 1)[1].split("\n  - ")[1:])
    return set()


@pytest.mark.parametrize("case", sorted(INCONSISTENT))
def test_the_chart_fails_with_the_models_problems(case: str) -> None:
    expected = model_problems(INCONSISTENT[case])

    assert expected, "the model accepted values the test expects it to reject"
    assert chart_problems(INCONSISTENT[case]) == expected


@pytest.mark.parametrize("case", sorted(CONSISTENT))
def test_what_the_model_accepts_the_chart_renders(case: str) -> None:
    assert model_problems(CONSISTENT[case]) == set()
    assert chart_problems(CONSISTENT[case]) == set()


def test_every_problem_is_reported_at_once() -> None:
    problems = chart_problems(INCONSISTENT["everything at once"])

    keys = sorted(problem.split(":", 1)[0] for problem in problems)
    assert keys == [
        "datasets[0].mountPath",
        "datasets[1].claimName",
        "datasets[2].mountPath",
        "mpi.sshPort",
        "runPolicy.restartPolicy",
        "scheduling.gang.minAvailable",
        "worker.replicas",
    ]


@pytest.mark.parametrize(
    ("release", "values"),
    [
        ("9lives", job_values("mpi")),
        ("Imagenet", job_values("pytorch")),
        ("job-", job_values("tensorflow")),
        # 55 + len("-launcher") = 64
        ("a" * 55, job_values("mpi", worker={"replicas": 4})),
        # 54 + len("-worker-99") = 64
        ("a" * 54, job_values("mpi", worker={"replicas": 100})),
        # 52 + len("-evaluator-0") = 64
        ("a" * 52, job_values("tensorflow", tensorflow={"evaluator": {"replicas": 1}})),
        # 55 + len("-worker-9") = 64
        ("a" * 55, job_values("pytorch", worker={"replicas": 10})),
    ],
)
def test_release_names_the_pods_cannot_carry_are_rejected_alike(
    release: str, values: dict[str, Any]
) -> None:
    expected = model_problems(values, release)

    assert len(expected) == 1
    assert next(iter(expected)).startswith("release name: ")
    assert chart_problems(values, release) == expected


@pytest.mark.parametrize(
    ("release", "values"),
    [
        ("imagenet-tensorflow", job_values("mpi", worker={"replicas": 4})),
        # 53 + len("-worker-99") = 63, exactly the limit
        ("a" * 53, job_values("mpi", worker={"replicas": 100})),
        ("a" * 54, job_values("pytorch", worker={"replicas": 1})),
    ],
)
def test_release_names_that_fit_are_accepted_alike(release: str, values: dict[str, Any]) -> None:
    assert model_problems(values, release) == set()
    assert chart_problems(values, release) == set()
