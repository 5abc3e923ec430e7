"""Pod-level settings of every framework: command forms, env from the pod and from Secrets,
per-role env, restart policy, probes, users and capabilities, /dev/shm without a limit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chart.jobs import container, job_values, pod_spec, render_job, replica_specs, volumes

POD_NAME = {"valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}
TOKEN = {"valueFrom": {"secretKeyRef": {"name": "wandb", "key": "api-key"}}}


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        # no command: the image's ENTRYPOINT runs, the args replace its CMD
        (None, ["--backend", "nccl"], {"args": ["--backend", "nccl"]}),
        (None, [], {}),
        # a list runs as written, with the args after it
        (
            ["mpirun"],
            ["-n", "2", "/home/mpiuser/pi"],
            {"command": ["mpirun"], "args": ["-n", "2", "/home/mpiuser/pi"]},
        ),  # noqa: E501
        # a string runs through the shell, the args as "$@"
        (
            "python train.py",
            ["--lr", "0.1"],
            {"command": ["sh", "-c", "python train.py", "sh", "--lr", "0.1"]},
        ),  # noqa: E501
    ],
)
def test_the_command_runs_in_the_form_it_is_written(
    command: Any, args: list[str], expected: dict[str, Any]
) -> None:
    job = render_job(job_values("pytorch", command=command, args=args))

    training = container(job, "Master")
    assert {key: training[key] for key in ("command", "args") if key in training} == expected


def test_env_takes_literal_values_and_values_from_the_pod_and_secrets() -> None:
    values = job_values(
        "tensorflow",
        env={"NCCL_DEBUG": "INFO", "POD_NAME": POD_NAME, "WANDB_API_KEY": TOKEN},
        envFrom=[
            {"secretRef": {"name": "s3-credentials"}},
            {"configMapRef": {"name": "hp"}, "prefix": "HP_"},
        ],  # noqa: E501
    )
    chief = container(render_job(values), "Chief")

    assert chief["env"] == [
        {"name": "NCCL_DEBUG", "value": "INFO"},
        {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
        {
            "name": "WANDB_API_KEY",
            "valueFrom": {"secretKeyRef": {"name": "wandb", "key": "api-key"}},
        },  # noqa: E501
    ]
    assert chief["envFrom"] == [
        {"secretRef": {"name": "s3-credentials"}},
        {"configMapRef": {"name": "hp"}, "prefix": "HP_"},
    ]


def test_a_role_env_is_set_over_the_job_env_for_that_role_only() -> None:
    values = job_values(
        "tensorflow",
        env={"gpus": "1", "workers": "1"},
        tensorflow={
            "chief": {"replicas": 0},
            "ps": {"replicas": 1, "env": {"NVIDIA_VISIBLE_DEVICES": "void", "gpus": "0"}},
        },  # noqa: E501
    )
    job = render_job(values)

    assert container(job, "PS")["env"] == [
        {"name": "NVIDIA_VISIBLE_DEVICES", "value": "void"},
        {"name": "gpus", "value": "0"},
        {"name": "workers", "value": "1"},
    ]
    assert container(job, "Worker")["env"] == [
        {"name": "gpus", "value": "1"},
        {"name": "workers", "value": "1"},
    ]


def test_each_role_may_restart_on_its_own_policy() -> None:
    values = job_values(
        "pytorch",
        runPolicy={"restartPolicy": "OnFailure"},
        worker={"replicas": 2},
        pytorch={"master": {"restartPolicy": "Never"}},
    )
    specs = replica_specs(render_job(values))
    assert (specs["Master"]["restartPolicy"], specs["Worker"]["restartPolicy"]) == (
        "Never",
        "OnFailure",
    )
    # MPI workers never restart unless their role says so; the launcher Job retries with
    # a new pod
    mpi = replica_specs(render_job(job_values("mpi")))
    assert (mpi["Launcher"]["restartPolicy"], mpi["Worker"]["restartPolicy"]) == (
        "Never",
        "Never",
    )
    mpi = replica_specs(render_job(job_values("mpi", worker={"restartPolicy": "OnFailure"})))
    assert mpi["Worker"]["restartPolicy"] == "OnFailure"


def test_probes_are_written_as_given() -> None:
    values = job_values(
        "mpi",
        worker={
            "readinessProbe": {"tcpSocket": {"port": 2222}, "initialDelaySeconds": 2},
            "livenessProbe": {"exec": {"command": ["pgrep", "sshd"]}, "periodSeconds": 30},
        },
    )
    worker = container(render_job(values), "Worker")

    assert worker["readinessProbe"] == {"tcpSocket": {"port": 2222}, "initialDelaySeconds": 2}
    assert worker["livenessProbe"] == {"exec": {"command": ["pgrep", "sshd"]}, "periodSeconds": 30}
    assert "readinessProbe" not in container(render_job(values), "Launcher")


def test_non_root_users_and_groups_with_a_role_of_its_own() -> None:
    values = job_values(
        "mpi",
        security={"runAsUser": 1000, "runAsGroup": 1000, "fsGroup": 1000, "runAsNonRoot": True},
        mpi={
            "launcher": {"security": {"runAsUser": 1001, "capabilities": {"add": ["SYS_PTRACE"]}}}
        },  # noqa: E501
    )
    job = render_job(values)

    worker = container(job, "Worker")["securityContext"]
    assert (worker["runAsUser"], worker["runAsGroup"], worker["runAsNonRoot"]) == (1000, 1000, True)
    assert "add" not in worker["capabilities"]
    launcher = container(job, "Launcher")["securityContext"]
    assert (launcher["runAsUser"], launcher["runAsGroup"]) == (1001, 1000)
    assert launcher["capabilities"] == {"add": ["SYS_PTRACE"], "drop": ["NET_RAW"]}
    assert pod_spec(job, "Worker")["securityContext"] == {"fsGroup": 1000}
    # unset: the image's user, and no pod security context at all
    plain = render_job(job_values("mpi"))
    assert "runAsUser" not in container(plain, "Worker")["securityContext"]
    assert "securityContext" not in pod_spec(plain, "Worker")


def test_shared_memory_may_have_no_size_limit_of_its_own() -> None:
    job = render_job(job_values("pytorch", shm={"sizeLimit": None}))

    assert volumes(job, "Master")["dshm"] == {"name": "dshm", "emptyDir": {"medium": "Memory"}}


def test_pod_annotations_go_to_the_pods_only() -> None:
    values = job_values(
        "tensorflow",
        annotations={"team": "nlp"},
        podAnnotations={"scheduling.k8s.io/group-name": "job"},
    )
    job = render_job(values)

    assert job["metadata"]["annotations"] == {"team": "nlp"}
    assert replica_specs(job)["Chief"]["template"]["metadata"]["annotations"] == {
        "scheduling.k8s.io/group-name": "job",
        "team": "nlp",
    }


def test_a_role_port_names_the_operators_port() -> None:
    values = job_values("tensorflow", tensorflow={"chief": {"port": 22221}})
    job = render_job(values)

    assert container(job, "Chief")["ports"] == [{"name": "tfjob-port", "containerPort": 22221}]
    # unset: the operator adds its default port itself
    assert "ports" not in container(job, "Worker")
