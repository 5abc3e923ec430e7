"""The PyTorchJob (kubeflow.org/v1) the chart renders for framework pytorch."""

from __future__ import annotations

from tests.chart.jobs import container, job_values, render_job, replica_specs

DDP = job_values("pytorch", worker={"replicas": 3, "gpus": 1})
"""Workload 3: Master + 2 Workers, 1 GPU each (``worker.replicas`` counts the master)."""


def _gpus(job: dict) -> int:
    """GPUs of every pod the job starts, in all."""
    return sum(
        spec["replicas"] * container(job, role)["resources"]["limits"].get("nvidia.com/gpu", 0)
        for role, spec in replica_specs(job).items()
    )


def test_one_master_and_two_workers_with_one_gpu_each() -> None:
    job = render_job(DDP)

    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1", "PyTorchJob")
    specs = replica_specs(job)
    assert specs["Master"]["replicas"] == 1
    assert specs["Worker"]["replicas"] == 2
    for role in ("Master", "Worker"):
        assert container(job, role)["name"] == "pytorch"
        assert container(job, role)["resources"]["requests"] == {"nvidia.com/gpu": 1}
        assert container(job, role)["resources"]["limits"] == {"nvidia.com/gpu": 1}


def test_the_master_counts_among_the_workers_as_in_arena() -> None:
    """`arena submit pytorch --workers=2 --gpus=4`: 2 pods, 8 GPUs in all."""
    job = render_job(job_values("pytorch", worker={"replicas": 2, "gpus": 4}))

    assert {role: spec["replicas"] for role, spec in replica_specs(job).items()} == {
        "Master": 1,
        "Worker": 1,
    }
    assert _gpus(job) == 8


def test_workers_besides_the_master_when_asked() -> None:
    values = job_values(
        "pytorch", worker={"replicas": 2, "gpus": 4}, pytorch={"countMasterAsWorker": False}
    )
    job = render_job(values)

    assert replica_specs(job)["Worker"]["replicas"] == 2
    assert _gpus(job) == 12


def test_worker_only_jobs_count_every_replica_as_a_worker() -> None:
    values = job_values(
        "pytorch", worker={"replicas": 2, "gpus": 4}, pytorch={"master": {"replicas": 0}}
    )
    job = render_job(values)

    assert sorted(replica_specs(job)) == ["Worker"]
    assert replica_specs(job)["Worker"]["replicas"] == 2


def test_a_master_alone_has_no_worker_replica_spec() -> None:
    job = render_job(job_values("pytorch", worker={"replicas": 1, "gpus": 2}))

    assert sorted(replica_specs(job)) == ["Master"]
    assert container(job, "Master")["resources"]["limits"] == {"nvidia.com/gpu": 2}


def test_the_master_can_have_its_own_gpus() -> None:
    values = job_values(
        "pytorch", worker={"replicas": 2, "gpus": 2}, pytorch={"master": {"gpus": 1}}
    )
    job = render_job(values)

    assert container(job, "Master")["resources"]["limits"] == {"nvidia.com/gpu": 1}
    assert container(job, "Worker")["resources"]["limits"] == {"nvidia.com/gpu": 2}


def test_nproc_per_node_is_written_as_text() -> None:
    assert "nprocPerNode" not in render_job(DDP)["spec"]
    assert (
        render_job(job_values("pytorch", pytorch={"nprocPerNode": 4}))["spec"]["nprocPerNode"]
        == "4"
    )
    assert (
        render_job(job_values("pytorch", pytorch={"nprocPerNode": "gpu"}))["spec"]["nprocPerNode"]
        == "gpu"
    )


def test_args_reach_the_command_as_positional_parameters() -> None:
    values = job_values(
        "pytorch",
        command='torchrun /app/train.py "$@"',
        args=["--lr", "0.1"],
        shell="bash",
        worker={"replicas": 2},
    )
    job = render_job(values)

    assert container(job, "Worker")["command"] == [
        "bash",
        "-c",
        'torchrun /app/train.py "$@"',
        "bash",
        "--lr",
        "0.1",
    ]


def test_a_worker_only_elastic_job_scales_its_workers() -> None:
    values = job_values(
        "pytorch",
        worker={"replicas": 2},
        pytorch={
            "master": {"replicas": 0},
            "elasticPolicy": {
                "minReplicas": 1,
                "maxReplicas": 3,
                "rdzvBackend": "c10d",
                "maxRestarts": 100,
                "rdzvConf": {"timeout": "900", "join_timeout": "600"},
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "cpu",
                            "target": {"type": "Utilization", "averageUtilization": 80},
                        },
                    }
                ],
            },
        },
    )
    job = render_job(values)

    assert sorted(replica_specs(job)) == ["Worker"]
    assert job["spec"]["elasticPolicy"] == {
        "minReplicas": 1,
        "maxReplicas": 3,
        "rdzvBackend": "c10d",
        "maxRestarts": 100,
        # sorted by key: the same list on every render
        "rdzvConf": [{"key": "join_timeout", "value": "600"}, {"key": "timeout", "value": "900"}],
        "metrics": [
            {
                "type": "Resource",
                "resource": {
                    "name": "cpu",
                    "target": {"type": "Utilization", "averageUtilization": 80},
                },
            }
        ],
    }


def test_a_fixed_size_job_has_no_elastic_policy() -> None:
    assert "elasticPolicy" not in render_job(DDP)["spec"]
