"""The TrainJob (trainer.kubeflow.org/v1alpha1) the chart renders for framework trainjob."""

from __future__ import annotations

from typing import Any

from tests.chart.jobs import IMAGE, job_values, render_job

DDP = job_values(
    "trainjob",
    command=["torchrun", "/app/train.py"],
    args=["--epochs", "1"],
    env={"NCCL_DEBUG": "INFO"},
    worker={
        "replicas": 3,
        "gpus": 1,
        "resources": {"requests": {"cpu": 4}, "limits": {"memory": "32Gi"}},
        "env": {"POD_NAME": {"valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}},
        "nodeSelector": {"pool": "gpu"},
    },
    datasets=[{"claimName": "mnist", "mountPath": "/data", "readOnly": True}],
    runPolicy={"activeDeadlineSeconds": 3600},
)


def _patches(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Replicated job -> the pod template patch trainstack writes for it."""
    (patch,) = job["spec"]["runtimePatches"]
    assert patch["manager"] == "trainstack.io/training-job"
    jobs = patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"]
    return {entry["name"]: entry["template"]["spec"]["template"] for entry in jobs}


def test_the_trainer_runs_the_job_on_the_torch_runtime() -> None:
    job = render_job(DDP)

    assert (job["apiVersion"], job["kind"]) == ("trainer.kubeflow.org/v1alpha1", "TrainJob")
    assert job["spec"]["runtimeRef"] == {
        "name": "torch-distributed",
        "kind": "ClusterTrainingRuntime",
    }
    assert job["spec"]["activeDeadlineSeconds"] == 3600
    trainer = job["spec"]["trainer"]
    # a TrainJob has no init containers: the preflight runs first, then execs the command
    script = trainer.pop("command")
    assert script[:2] == ["sh", "-c"] and script[3:] == ["trainstack-preflight"]
    assert script[2].startswith("# trainstack preflight: charts/training-job/files/preflight.sh")
    assert trainer == {
        "image": IMAGE,
        "args": ["torchrun", "/app/train.py", "--epochs", "1"],
        "env": [
            {"name": "NCCL_DEBUG", "value": "INFO"},
            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
            {"name": "TRAINSTACK_PREFLIGHT_GPUS", "value": "1"},
            {"name": "TRAINSTACK_PREFLIGHT_READ", "value": "dataset /data"},
            {"name": "TRAINSTACK_PREFLIGHT_DATASETS", "value": "mnist /data"},
        ],
        "numNodes": 3,
        "resourcesPerNode": {
            "requests": {"cpu": "4", "nvidia.com/gpu": 1},
            "limits": {"memory": "32Gi", "nvidia.com/gpu": 1},
        },
    }
    assert "numProcPerNode" not in trainer
    off = render_job({**DDP, "preflight": {"enabled": False}})["spec"]["trainer"]
    assert (off["command"], off["args"]) == (["torchrun", "/app/train.py"], ["--epochs", "1"])


def test_a_torchtune_command_reaches_trainer_as_it_is() -> None:
    """Trainer v2.3.0 rewrites the command only when it is exactly [tune, run] (its torch
    plugin): the chart never wraps it (with the preflight on it is refused)."""
    tune = {**DDP, "command": ["tune", "run"], "args": [], "preflight": {"enabled": False}}
    trainer = render_job(tune)["spec"]["trainer"]
    assert trainer["command"] == ["tune", "run"] and "args" not in trainer


def test_the_runtimes_pods_get_the_data_shared_memory_security_and_placement() -> None:
    node = _patches(render_job(DDP))["node"]

    assert node["metadata"]["labels"]["app.kubernetes.io/component"] == "worker"
    spec = node["spec"]
    assert spec["nodeSelector"] == {"pool": "gpu"}
    assert spec["volumes"] == [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "2Gi"}},
        {"name": "dataset-0", "persistentVolumeClaim": {"claimName": "mnist", "readOnly": True}},
    ]
    (container,) = spec["containers"]
    assert container == {
        "name": "node",
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["NET_RAW"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "volumeMounts": [
            {"name": "dshm", "mountPath": "/dev/shm"},
            {"name": "dataset-0", "mountPath": "/data", "readOnly": True},
        ],
    }


def test_an_mpi_runtime_patches_its_launcher_and_its_nodes() -> None:
    values = job_values(
        "trainjob",
        worker={"replicas": 2, "gpus": 4},
        trainjob={"runtime": "deepspeed-distributed", "numProcPerNode": 4},
        scheduling={"workerSpread": "required"},
    )
    job = render_job(values)

    assert job["spec"]["runtimeRef"]["name"] == "deepspeed-distributed"
    assert job["spec"]["trainer"]["numProcPerNode"] == 4
    patches = _patches(job)
    assert list(patches) == ["launcher", "node"]
    assert patches["launcher"]["metadata"]["labels"]["app.kubernetes.io/component"] == "launcher"
    # the worker spread keeps the nodes apart; the launcher is not one of the spread pods
    assert "affinity" in patches["node"]["spec"]
    assert "affinity" not in patches["launcher"]["spec"]


def test_a_runtime_of_ones_own_patches_the_replicated_jobs_named() -> None:
    values = job_values(
        "trainjob",
        trainjob={
            "runtime": "team-runtime",
            "runtimeKind": "TrainingRuntime",
            "replicatedJobs": ["trainer"],
            "container": "train",
        },
    )
    job = render_job(values)

    assert job["spec"]["runtimeRef"] == {"name": "team-runtime", "kind": "TrainingRuntime"}
    assert list(_patches(job)) == ["trainer"]
    assert _patches(job)["trainer"]["spec"]["containers"][0]["name"] == "train"
