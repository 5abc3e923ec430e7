"""The chart's validateValues and the model's rules give the same answer, word for word.

Each case is checked both ways: values the model rejects make the chart fail with the
same problems, and values the model accepts render.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import CHART_DIR, IMAGE, job_values
from trainstack.chart.render import render_manifests
from trainstack.core.errors import ChartError, ValuesError
from trainstack.training_job import release_name_problems, validate_values

FAIL_HEADER = "invalid values for the training-job chart"
DATA = {"claimName": "data", "mountPath": "/data"}

RESULTS = {"claimName": "out", "mountPath": "/results"}


def _arena_claims(**values: Any) -> dict[str, Any]:
    """An arenaSubmit MPIJob v1alpha1 reading one dataset (its launcher takes it off)."""
    return job_values(
        "mpi",
        operatorApi="arena",
        arenaSubmit=True,
        security={"seccompProfile": None},
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
        **values,
    )


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
    "a dataset over the ranks' env file": job_values(
        "mpi", datasets=[{"claimName": "data", "mountPath": "/etc/trainstack/mpi"}]
    ),
    "Open MPI's env list beside the env file": job_values(
        "mpi",
        env={"OMPI_MCA_mca_base_env_list": "PERSEUS_ALLREDUCE_DTYPE"},
        mpi={"launcher": {"env": {"OMPI_MCA_mca_base_envar_file_prefix": "/tmp/x"}}},
    ),
    "a control character in the workers' sshd options": job_values(
        "mpi", mpi={"workerCommand": ["/usr/sbin/sshd", "-De\n-o"], "workerArgs": ["-f\t"]}
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
    "mpi workers without an sshd command on another port": job_values(
        "mpi", mpi={"sshPort": 2222, "workerCommand": None}
    ),
    "ExitCode on the MPI launcher and workers": job_values(
        "mpi",
        worker={"restartPolicy": "ExitCode"},
        mpi={"launcher": {"restartPolicy": "ExitCode"}},
    ),
    "a port on mpi workers": job_values("mpi", worker={"port": 2222}),
    "a pytorch job without master or worker": job_values(
        "pytorch", worker={"replicas": 0}, pytorch={"master": {"replicas": 0}}
    ),
    "an elastic job without workers": job_values(
        "pytorch", worker={"replicas": 0}, pytorch={"elasticPolicy": {"maxReplicas": 2}}
    ),
    "an elastic range upside down": job_values(
        "pytorch", pytorch={"elasticPolicy": {"minReplicas": 3, "maxReplicas": 2}}
    ),
    "no pytorch worker though the master counts among them": job_values(
        "pytorch", worker={"replicas": 0}
    ),
    "workers below the elastic minimum": job_values(
        "pytorch", worker={"replicas": 1}, pytorch={"elasticPolicy": {"minReplicas": 2}}
    ),
    "workers above the elastic maximum": job_values(
        # the master and 5 Workers: one Worker above the maximum
        "pytorch",
        worker={"replicas": 6},
        pytorch={"elasticPolicy": {"maxReplicas": 4}},
    ),
    "elastic and worker-only pytorch in Arena's dialect": job_values(
        "pytorch",
        operatorApi="arena",
        security={"seccompProfile": None},
        pytorch={"master": {"replicas": 0}, "elasticPolicy": {"maxReplicas": 2}},
    ),
    "everything ack-arena's MPIJob v1alpha1 cannot carry": job_values(
        "mpi",
        operatorApi="arena",
        security={"seccompProfile": None},
        worker={"restartPolicy": "Never"},
        scheduling={"workerSpread": "preferred"},
        runPolicy={"activeDeadlineSeconds": 60, "ttlSecondsAfterFinished": 60},
        mpi={
            "implementation": "Intel",
            "slotsPerWorker": 2,
            "sshPort": 2222,
            "workerCommand": ["/usr/sbin/sshd", "-D"],
            "workerArgs": ["-f", "/etc/ssh/x"],
            "sshAuthMountPath": "/home/mpiuser/.ssh",
            "launcher": {
                "image": "registry.example.com/launcher:1",
                "nodeSelector": {"pool": "cpu"},
                "tolerations": [{"key": "k", "operator": "Exists"}],
                "env": {"A": "1"},
                "readinessProbe": {"exec": {"command": ["true"]}},
                "livenessProbe": {"exec": {"command": ["true"]}},
                "security": {"capabilities": {"add": []}},
            },
        },
    ),
    "mpi workers without a command in Arena's dialect": job_values(
        "mpi", operatorApi="arena", security={"seccompProfile": None}, mpi={"workerCommand": None}
    ),
    "a dataset over ack-arena's kubectl": job_values(
        "mpi",
        operatorApi="arena",
        security={"seccompProfile": None},
        datasets=[{"claimName": "d", "mountPath": "/opt/kube"}],
    ),
    # the fork strips claims off its launcher in place: two panic it (mpi/arena.py)
    "two claims off ack-arena's launcher": _arena_claims(results=RESULTS),
    "an ack-arena launcher without a command keeps its preflight": job_values(
        "mpi", operatorApi="arena", security={"seccompProfile": None}, command=None
    ),
    "arenaSubmit on a trainjob": job_values("trainjob", arenaSubmit=True),
    "a trainjob without a command keeps its preflight": job_values("trainjob", command=None),
    # Trainer rewrites exactly [tune, run]: wrapped, it would not (trainjob/unsupported.py)
    "a torchtune trainjob keeps its preflight": job_values(
        "trainjob", command=["tune", "run"], args=["--config", "llama3_2/1B_lora"]
    ),
    "arenaSubmit with Arena's env, labels and annotation written by hand": job_values(
        "tensorflow",
        arenaSubmit=True,
        env={"workers": "2", "gpus": {"valueFrom": {"fieldRef": {"fieldPath": "x"}}}},
        worker={"gpus": 1, "env": {"NVIDIA_VISIBLE_DEVICES": "0"}},
        tensorflow={"ps": {"replicas": 1, "env": {"NVIDIA_VISIBLE_DEVICES": "void"}}},
        labels={"app": "tfjob", "release": "job"},
        annotations={"requestGPUsOfJobOwner": "2"},
        podAnnotations={"requestGPUsOfJobOwner": "2"},
    ),
    "NVIDIA_VISIBLE_DEVICES by hand on a GPU-less arenaSubmit job": job_values(
        "mpi", arenaSubmit=True, env={"NVIDIA_VISIBLE_DEVICES": "none"}
    ),
    "a trainjob in Arena's dialect": job_values(
        "trainjob", operatorApi="arena", security={"seccompProfile": None}
    ),
    "a trainjob without nodes": job_values("trainjob", worker={"replicas": 0}),
    "a trainjob on a runtime of its own without replicated jobs": job_values(
        "trainjob", trainjob={"runtime": "my-runtime"}
    ),
    "everything a trainjob cannot carry": job_values(
        "trainjob",
        workingDir="/workspace",
        image={"name": IMAGE, "pullPolicy": "Always"},
        envFrom=[{"secretRef": {"name": "s3"}}],
        worker={
            "restartPolicy": "Never",
            "port": 29500,
            "readinessProbe": {"tcpSocket": {"port": 22}},
            "livenessProbe": {"exec": {"command": ["true"]}},
        },
        runPolicy={
            "cleanPodPolicy": "All",
            "backoffLimit": 3,
            "ttlSecondsAfterFinished": 60,
            "restartPolicy": "Never",
        },
        scheduling={
            "gang": {"enabled": True},
            "priorityClassName": "high",
            "schedulerName": "volcano",
        },
        network={"hostNetwork": True},
        security={"hostIPC": True, "hostPID": True},
        codeSync={"mode": "git", "git": {"repository": "https://example.com/team/code.git"}},
    ),
    "a dataset over the MPI runtime's ssh keys": job_values(
        "trainjob",
        trainjob={"runtime": "deepspeed-distributed"},
        datasets=[{"claimName": "d", "mountPath": "/home/mpiuser/.ssh"}],
    ),
    "a dataset over the synced code": job_values(
        "pytorch",
        codeSync={"mode": "rsync", "rsync": {"source": "rsync://files/code/"}},
        datasets=[{"claimName": "d", "mountPath": "/code"}],
    ),
    "TensorBoard without a log directory": job_values(
        "tensorflow", datasets=[DATA], tensorboard={"enabled": True}
    ),
    "TensorBoard reading a directory on no claim": job_values(
        "pytorch",
        datasets=[DATA],
        results={"claimName": "out"},
        tensorboard={"enabled": True, "logDir": "/tmp/logs"},
    ),
    "TensorBoard in a job without claims": job_values(
        "mpi", tensorboard={"enabled": True, "logDir": "/logs"}
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
    "one claim off ack-arena's launcher": _arena_claims(),
    "a torchtune trainjob without the preflight": job_values(
        "trainjob", command=["tune", "run"], preflight={"enabled": False}
    ),
    "two claims on ack-arena's launcher": _arena_claims(
        results=RESULTS, mpi={"mountsOnLauncher": True}
    ),
    "a tensorflow chief alone": job_values("tensorflow", worker={"replicas": 0}),
    "tensorflow workers without chief": job_values(
        "tensorflow", worker={"replicas": 2}, tensorflow={"chief": {"replicas": 0}}
    ),
    "a pytorch master alone": job_values("pytorch", worker={"replicas": 1}),
    "a pytorch master alone, counted apart": job_values(
        "pytorch", worker={"replicas": 0}, pytorch={"countMasterAsWorker": False}
    ),
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
    "a trainjob without a command and without preflight": job_values(
        "trainjob", command=None, preflight={"enabled": False}
    ),
    "arenaSubmit with NVIDIA_VISIBLE_DEVICES where Arena leaves it": job_values(
        "mpi", arenaSubmit=True, worker={"gpus": 1}, env={"NVIDIA_VISIBLE_DEVICES": "all"}
    ),
    "arenaSubmit on ack-arena's MPIJob": job_values(
        "mpi", arenaSubmit=True, operatorApi="arena", security={"seccompProfile": None}
    ),
    "mpi in Arena's dialect on the host network with port 22 (no sshd)": job_values(
        "mpi", operatorApi="arena", security={"seccompProfile": None}, network={"hostNetwork": True}
    ),
    "the launcher's own resources and restarts in Arena's dialect": job_values(
        "mpi",
        operatorApi="arena",
        security={"seccompProfile": None},
        mpi={"launcher": {"resources": {"requests": {"cpu": 1}}, "restartPolicy": "Never"}},
    ),
    "/root/.ssh is free in Arena's dialect": job_values(
        "mpi",
        operatorApi="arena",
        security={"seccompProfile": None},
        datasets=[{"claimName": "d", "mountPath": "/root/.ssh"}],
    ),
    "mpi workers with args on another port": job_values(
        "mpi", mpi={"sshPort": 2222, "workerCommand": None, "workerArgs": ["/usr/sbin/sshd"]}
    ),
    "ports on tensorflow roles": job_values(
        "tensorflow", worker={"port": 22222}, tensorflow={"ps": {"replicas": 1, "port": 22223}}
    ),
    "a worker-only elastic pytorch job": job_values(
        "pytorch",
        worker={"replicas": 2},
        pytorch={"master": {"replicas": 0}, "elasticPolicy": {"minReplicas": 1, "maxReplicas": 4}},
    ),
    "a pytorch master alone with no elastic policy": job_values(
        "pytorch", worker={"replicas": 1}, pytorch={"master": {"replicas": 1}}
    ),
    "a trainjob on the torch runtime": job_values("trainjob", worker={"replicas": 2, "gpus": 1}),
    "a trainjob on a runtime of its own with its replicated jobs": job_values(
        "trainjob", trainjob={"runtime": "my-runtime", "replicatedJobs": ["trainer"]}
    ),
    "/home/mpiuser/.ssh is only reserved for the MPI runtimes": job_values(
        "trainjob", datasets=[{"claimName": "d", "mountPath": "/home/mpiuser/.ssh"}]
    ),
    "TensorBoard on the results claim": job_values(
        "pytorch", results={"claimName": "out"}, tensorboard={"enabled": True, "logDir": "/results"}
    ),
    "TensorBoard under a dataset": job_values(
        "mpi", datasets=[DATA], tensorboard={"enabled": True, "logDir": "/data/runs/1/"}
    ),
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
