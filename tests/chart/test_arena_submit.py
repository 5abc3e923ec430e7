"""arenaSubmit: a job gets what `arena submit` gave it, field by field, with no hand-copied env.

Arena's own renders of its documented `arena submit mpi` commands (the reference
upstream-jobs, rendered from kubeflow/arena's charts/mpijob) are written as experiments
that say only what the command line said, plus ``arenaSubmit: true``, on ack-arena's
MPIJob v1alpha1: they render the same job (tests/chart/upstream.py sets aside only what
says who made an object), and Arena's env, labels and annotation are compared too.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import container, env, job_values, pod_spec, render_job, replica_specs
from tests.chart.upstream import as_applied, read_objects, upstream_dir
from trainstack.chart.render import render_training_job

ARENA_MPI = {"arenaSubmit": True, "operatorApi": "arena", "security": {"seccompProfile": None}}
VGG16 = (
    "mpirun --allow-run-as-root -np 4 -bind-to none -map-by slot -x NCCL_DEBUG=INFO -x "
    "NCCL_SOCKET_IFNAME=eth0 -x LD_LIBRARY_PATH -x PATH --mca pml ob1 --mca btl_tcp_if_include "
    "eth0 --mca oob_tcp_if_include eth0 --mca orte_keep_fqdn_hostnames t --mca btl ^openib "
    "python /tensorflow/benchmarks/scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py "
    "--model=vgg16 --batch_size=64 --variable_update=horovod"
)
# file -> what its `arena submit mpi` line says, as an experiment
CASES: dict[str, dict[str, Any]] = {
    "arena/arena-mpi-tensorflow-4-vgg16.arena-rendered.yaml": {
        "framework": "mpi",
        **ARENA_MPI,
        "image": {
            "name": "registry.cn-hangzhou.aliyuncs.com/kubernetes-image-hub/tensorflow-benchmark:"
            "tf2.3.0-py3.7-cuda10.1"
        },
        "command": VGG16,
        "worker": {"replicas": 4, "gpus": 1},
    },
    "arena/arena-mpi-critical-priority.arena-rendered.yaml": {
        "framework": "mpi",
        **ARENA_MPI,
        "image": {
            "name": "registry.aliyuncs.com/tensorflow-samples/horovod:0.13.11-tf1.10.0-torch0.4.0-"
            "py3.5"
        },
        "command": "mpirun tail -f /dev/null",
        "worker": {"replicas": 1, "gpus": 1},
        "scheduling": {"priorityClassName": "critical"},
    },
}
SET_ASIDE = {
    # Arena writes none: the default ServiceAccount mounts its token anyway; trainstack
    # says so because the launcher's kubectl exec needs it (mpijob-v1alpha1.yaml)
    "token": lambda pod: pod.pop("automountServiceAccountToken", None),
}


def _arena_metadata(obj: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(labels, annotations) of the job and of its pod template, as Arena's tools read them."""
    keys = ("app", "release", "createdBy")
    found = []
    for metadata in (obj["metadata"], obj["spec"]["template"]["metadata"]):
        labels = {key: metadata["labels"][key] for key in keys}
        found.append(
            (labels, {"requestGPUsOfJobOwner": metadata["annotations"]["requestGPUsOfJobOwner"]})
        )
    return found


@pytest.mark.parametrize("path", sorted(CASES))
def test_the_arena_command_renders_the_job_arena_rendered(path: str) -> None:
    (upstream,) = read_objects(upstream_dir() / path)
    (rendered,) = render_training_job(
        CASES[path], release=upstream["metadata"]["name"], namespace="default"
    )

    assert _arena_metadata(rendered) == _arena_metadata(upstream)
    for obj in (rendered, upstream):
        SET_ASIDE["token"](obj["spec"]["template"]["spec"])
    assert as_applied(rendered) == as_applied(upstream)


def test_without_the_switch_nothing_of_arena_is_rendered() -> None:
    job = render_job(job_values("mpi", worker={"replicas": 2, "gpus": 4}))

    assert "env" not in container(job, "Launcher") and "env" not in container(job, "Worker")
    assert "app" not in job["metadata"]["labels"]
    assert "annotations" not in job["metadata"]
    assert container(job, "Worker")["imagePullPolicy"] == "IfNotPresent"
    assert "workingDir" not in container(job, "Worker")
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "Running"}
    assert replica_specs(job)["Launcher"]["restartPolicy"] == "Never"


def test_an_mpijob_v2beta1_gets_arenas_env_labels_and_defaults_on_every_pod() -> None:
    values = job_values("mpi", arenaSubmit=True, worker={"replicas": 4, "gpus": 4})
    job = render_job(values, release="imagenet")

    for role in ("Launcher", "Worker"):
        arenas = [pair for pair in env(job, role) if not pair[0].startswith("OMPI_")]
        assert arenas == [("gpus", "4"), ("workers", "4")]
        assert container(job, role)["imagePullPolicy"] == "Always"
        assert container(job, role)["workingDir"] == "/root"
        labels = replica_specs(job)[role]["template"]["metadata"]["labels"]
        assert (labels["app"], labels["release"], labels["createdBy"]) == (
            "mpijob",
            "imagenet",
            "MPIJob",
        )
        annotations = replica_specs(job)[role]["template"]["metadata"]["annotations"]
        # Arena's env reaches the ranks over ssh through Open MPI's env file (openmpi.py)
        assert annotations == {
            "requestGPUsOfJobOwner": "16",
            "trainstack.io/mpi-rank-env": "-x gpus\n-x workers\n",
        }
    assert job["metadata"]["annotations"] == {"requestGPUsOfJobOwner": "16"}
    # Arena's All would delete a failed worker and its preflight line; on v2beta1 Running
    # deletes the same running workers (docs/arena-parity.md)
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "Running", "backoffLimit": 0}
    assert replica_specs(job)["Launcher"]["restartPolicy"] == "Never"
    assert replica_specs(job)["Worker"]["restartPolicy"] == "Never"


def test_what_the_job_sets_wins_over_arenas_defaults() -> None:
    """The seed's own flags: --working-dir=/data --mounts-on-launcher=true."""
    values = job_values(
        "mpi",
        arenaSubmit=True,
        workingDir="/data",
        image={"name": "registry.example.com/x:1", "pullPolicy": "IfNotPresent"},
        mpi={"mountsOnLauncher": True},
        runPolicy={"cleanPodPolicy": "Running", "backoffLimit": 3, "restartPolicy": "OnFailure"},
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}],
    )
    job = render_job(values)

    assert container(job, "Launcher")["workingDir"] == "/data"
    assert container(job, "Launcher")["imagePullPolicy"] == "IfNotPresent"
    assert any(m["mountPath"] == "/data" for m in container(job, "Launcher")["volumeMounts"])
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "Running", "backoffLimit": 3}
    assert replica_specs(job)["Launcher"]["restartPolicy"] == "OnFailure"


def test_arenas_launcher_does_not_mount_the_data_unless_asked() -> None:
    values = job_values(
        "mpi", arenaSubmit=True, datasets=[{"claimName": "imagenet-data", "mountPath": "/data"}]
    )
    job = render_job(values)

    # its only volume: Open MPI's env file, from an annotation (no claim)
    volumes = pod_spec(job, "Launcher")["volumes"]
    assert [v["name"] for v in volumes] == ["trainstack-annotation-file"]
    assert not any(m["mountPath"] == "/data" for m in container(job, "Launcher")["volumeMounts"])
    assert any(m["mountPath"] == "/data" for m in container(job, "Worker")["volumeMounts"])


def test_no_gpus_means_nvidia_visible_devices_void_everywhere() -> None:
    job = render_job(job_values("mpi", arenaSubmit=True, worker={"replicas": 2}))

    for role in ("Launcher", "Worker"):
        assert [pair for pair in env(job, role) if not pair[0].startswith("OMPI_")] == [
            ("NVIDIA_VISIBLE_DEVICES", "void"),
            ("gpus", "0"),
            ("workers", "2"),
        ]


def test_tensorflow_parameter_servers_without_gpus_see_none_and_count_none() -> None:
    values = job_values(
        "tensorflow",
        arenaSubmit=True,
        worker={"replicas": 2, "gpus": 1},
        tensorflow={"ps": {"replicas": 1}, "evaluator": {"replicas": 1, "gpus": 1}},
    )
    job = render_job(values)

    assert env(job, "PS") == [("NVIDIA_VISIBLE_DEVICES", "void"), ("gpus", "1"), ("workers", "2")]
    assert env(job, "Worker") == [("gpus", "1"), ("workers", "2")]
    # chief 1 + evaluator 1 + workers 2, x 1 GPU; parameter servers are not counted
    assert job["metadata"]["annotations"] == {"requestGPUsOfJobOwner": "4"}
    restarts = {role: spec["restartPolicy"] for role, spec in replica_specs(job).items()}
    assert restarts == {
        "Chief": "Never",
        "Worker": "OnFailure",
        "PS": "Never",
        "Evaluator": "Never",
    }
    assert job["spec"]["runPolicy"]["cleanPodPolicy"] == "Running"
    alone = job_values("tensorflow", arenaSubmit=True, tensorflow={"chief": {"replicas": 0}})
    assert replica_specs(render_job(alone))["Worker"]["restartPolicy"] == "Never"


@pytest.mark.parametrize(
    ("replicas", "counted"),
    [(2, True), (1, False)],
    ids=["worker.replicas counts the master", "countMasterAsWorker false"],
)
def test_pytorch_workers_count_the_master(replicas: int, counted: bool) -> None:
    values = job_values(
        "pytorch",
        arenaSubmit=True,
        worker={"replicas": replicas, "gpus": 1},
        pytorch={"countMasterAsWorker": counted},
    )
    job = render_job(values)

    # arena submit pytorch --workers 2: one master and one worker
    assert env(job, "Master") == [("gpus", "1"), ("workers", "2")]
    assert replica_specs(job)["Worker"]["replicas"] == 1
    assert job["metadata"]["annotations"] == {"requestGPUsOfJobOwner": "2"}
    restarts = {role: spec["restartPolicy"] for role, spec in replica_specs(job).items()}
    assert restarts == {"Master": "Never", "Worker": "OnFailure"}
