"""Options every framework shares: command, env, metadata, storage, security, scheduling."""

from __future__ import annotations

import pytest

from tests.chart.jobs import (
    container,
    env,
    job_values,
    mounts,
    pod_spec,
    render_job,
    replica_specs,
    volumes,
)

# (framework, a replica type that runs the command)
RUNNERS = [("mpi", "Launcher"), ("tensorflow", "Chief"), ("pytorch", "Master")]
NASTY_COMMANDS = [
    "python train.py --config 'a: b' # not a comment",
    "echo \"double\" 'single' `backtick` $HOME \\ back\\slash",
    "set -e\ncd /data\n\npython train.py  # two lines, a blank one, trailing spaces   ",
    "key: value\n- item\n---\n...",
    "echo 训练 — naïve café ✓ 🚀",
    "{{ .Values.command }} %s %d <html> & > <",
    "   leading spaces",
    "yes",
    "0x1F",
    "~",
    "null",
]


@pytest.mark.parametrize("command", NASTY_COMMANDS)
@pytest.mark.parametrize(("framework", "role"), RUNNERS)
def test_the_command_arrives_exactly_as_written(framework: str, role: str, command: str) -> None:
    job = render_job(job_values(framework, command=command))

    assert container(job, role)["command"] == ["sh", "-c", command]


def test_env_is_set_in_name_order_with_exact_values() -> None:
    variables = {"ZETA": "last", "ALPHA": "a: b # c", "NCCL_DEBUG": "INFO", "EMPTY": "", "N": "1"}
    job = render_job(job_values("tensorflow", env=variables))

    assert env(job, "Chief") == sorted(variables.items())


def test_labels_and_annotations_on_the_job_and_every_pod() -> None:
    values = job_values(
        "tensorflow",
        labels={"team": "vision", "app.kubernetes.io/name": "mine"},
        annotations={"example.com/note": "a: b # c"},
    )
    job = render_job(values, release="mnist")

    standard = {
        "app.kubernetes.io/name": "training-job",
        "app.kubernetes.io/instance": "mnist",
        "app.kubernetes.io/managed-by": "Helm",
        "app.kubernetes.io/version": "0.1.0",
        "helm.sh/chart": "training-job-0.1.0",
        "team": "vision",
    }
    assert job["metadata"]["labels"] == standard
    assert job["metadata"]["annotations"] == {"example.com/note": "a: b # c"}
    for role, spec in replica_specs(job).items():
        metadata = spec["template"]["metadata"]
        assert metadata["labels"] == {**standard, "app.kubernetes.io/component": role.lower()}
        assert metadata["annotations"] == {"example.com/note": "a: b # c"}


def test_image_pull_policy_and_secrets() -> None:
    values = job_values(
        "pytorch", image={"pullPolicy": "Always", "pullSecrets": ["acr-a", "acr-b"]}
    )
    job = render_job(values)

    assert container(job, "Master")["imagePullPolicy"] == "Always"
    assert pod_spec(job, "Master")["imagePullSecrets"] == [{"name": "acr-a"}, {"name": "acr-b"}]


def test_cpu_and_memory_requests_and_limits_next_to_gpus() -> None:
    resources = {"requests": {"cpu": 8, "memory": "32Gi"}, "limits": {"memory": "64Gi"}}
    job = render_job(job_values("mpi", worker={"gpus": 2, "resources": resources}))

    assert container(job, "Worker")["resources"] == {
        "requests": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": 2},
        "limits": {"memory": "64Gi", "nvidia.com/gpu": 2},
    }


def test_shared_memory_can_be_resized_or_turned_off() -> None:
    bigger = render_job(job_values("pytorch", shm={"sizeLimit": "16Gi"}))
    assert volumes(bigger, "Master")["dshm"]["emptyDir"]["sizeLimit"] == "16Gi"

    off = render_job(job_values("pytorch", shm={"enabled": False}))
    assert "dshm" not in volumes(off, "Master")
    assert "/dev/shm" not in mounts(off, "Master")


def test_datasets_with_sub_path_and_read_only_and_a_results_claim() -> None:
    values = job_values(
        "pytorch",
        datasets=[
            {"claimName": "imagenet", "mountPath": "/data", "readOnly": True},
            {"claimName": "coco", "mountPath": "/coco", "subPath": "2017/train", "readOnly": False},
        ],
        results={"claimName": "results", "mountPath": "/out", "subPath": "run-1"},
    )
    job = render_job(values)

    assert mounts(job, "Master") == {
        "/dev/shm": {"name": "dshm", "mountPath": "/dev/shm"},
        "/data": {"name": "dataset-0", "mountPath": "/data", "readOnly": True},
        "/coco": {"name": "dataset-1", "mountPath": "/coco", "subPath": "2017/train"},
        "/out": {"name": "results", "mountPath": "/out", "subPath": "run-1"},
    }
    claims = {name: v.get("persistentVolumeClaim") for name, v in volumes(job, "Master").items()}
    assert claims["dataset-0"] == {"claimName": "imagenet", "readOnly": True}
    assert claims["dataset-1"] == {"claimName": "coco"}
    assert claims["results"] == {"claimName": "results"}


def test_no_host_path_unless_listed_and_then_read_only_directories() -> None:
    plain = render_job(job_values("mpi"))
    for role in ("Launcher", "Worker"):
        assert not any("hostPath" in v for v in volumes(plain, role).values())

    values = job_values("mpi", hostPaths=[{"path": "/mnt/cache", "mountPath": "/cache"}])
    job = render_job(values)
    assert volumes(job, "Worker")["host-path-0"]["hostPath"] == {
        "path": "/mnt/cache",
        "type": "Directory",
    }
    assert mounts(job, "Worker")["/cache"]["readOnly"] is True


@pytest.mark.parametrize(("framework", "role"), RUNNERS)
def test_secure_by_default(framework: str, role: str) -> None:
    job = render_job(job_values(framework))

    pod = pod_spec(job, role)
    for host_access in ("hostNetwork", "hostIPC", "hostPID"):
        assert host_access not in pod
    assert pod["automountServiceAccountToken"] is False
    assert container(job, role)["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "capabilities": {"drop": ["NET_RAW"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }


def test_privileged_only_when_asked_and_then_nothing_that_contradicts_it() -> None:
    job = render_job(job_values("mpi", security={"privileged": True}))

    for role in ("Launcher", "Worker"):
        assert container(job, role)["securityContext"] == {"privileged": True}


def test_host_ipc_pid_capabilities_and_service_account() -> None:
    values = job_values(
        "pytorch",
        security={
            "hostIPC": True,
            "hostPID": True,
            "capabilities": {"add": ["SYS_PTRACE"], "drop": []},
            "seccompProfile": "Unconfined",
            "automountServiceAccountToken": True,
            "serviceAccountName": "oss-reader",
        },
    )
    job = render_job(values)

    pod = pod_spec(job, "Master")
    assert (pod["hostIPC"], pod["hostPID"]) == (True, True)
    assert pod["automountServiceAccountToken"] is True
    assert pod["serviceAccountName"] == "oss-reader"
    assert container(job, "Master")["securityContext"] == {
        "allowPrivilegeEscalation": False,
        "capabilities": {"add": ["SYS_PTRACE"]},
        "seccompProfile": {"type": "Unconfined"},
    }


def test_rdma_requests_devices_on_training_pods_and_locks_memory() -> None:
    values = job_values("mpi", worker={"gpus": 8}, network={"rdma": {"enabled": True}})
    job = render_job(values)

    worker = container(job, "Worker")
    assert worker["resources"]["limits"] == {"nvidia.com/gpu": 8, "rdma/hca": 1}
    assert worker["securityContext"]["capabilities"]["add"] == ["IPC_LOCK"]
    # the launcher only runs mpirun over SSH: no RDMA device for it
    assert "resources" not in container(job, "Launcher")
    assert container(job, "Launcher")["securityContext"]["capabilities"] == {"drop": ["NET_RAW"]}


def test_scheduling_node_selector_tolerations_priority_and_scheduler() -> None:
    values = job_values(
        "tensorflow",
        scheduling={
            "nodeSelector": {"node.kubernetes.io/instance-type": "ecs.gn6e-c12g1.12xlarge"},
            "tolerations": [
                {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "spot", "value": "true", "effect": "NoExecute", "tolerationSeconds": 0},
            ],
            "priorityClassName": "training-high",
            "schedulerName": "volcano",
        },
    )
    pod = pod_spec(render_job(values), "Chief")

    assert pod["nodeSelector"] == {"node.kubernetes.io/instance-type": "ecs.gn6e-c12g1.12xlarge"}
    assert pod["tolerations"] == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
        {
            "key": "spot",
            "operator": "Equal",
            "value": "true",
            "effect": "NoExecute",
            "tolerationSeconds": 0,
        },
    ]
    assert pod["priorityClassName"] == "training-high"
    assert pod["schedulerName"] == "volcano"


def test_run_policy_keeps_zero_values() -> None:
    values = job_values(
        "mpi",
        runPolicy={
            "cleanPodPolicy": "All",
            "ttlSecondsAfterFinished": 0,
            "backoffLimit": 0,
            "activeDeadlineSeconds": 86400,
        },
    )
    assert render_job(values)["spec"]["runPolicy"] == {
        "cleanPodPolicy": "All",
        "ttlSecondsAfterFinished": 0,
        "backoffLimit": 0,
        "activeDeadlineSeconds": 86400,
    }


def test_run_policy_defaults_to_running_pods_cleaned_and_no_ttl() -> None:
    assert render_job(job_values("pytorch"))["spec"]["runPolicy"] == {"cleanPodPolicy": "Running"}


@pytest.mark.parametrize(
    ("framework", "overrides", "pods"),
    [
        ("mpi", {"worker": {"replicas": 4}}, 5),
        ("pytorch", {"worker": {"replicas": 3}}, 3),  # the master counts among the workers
        ("pytorch", {"worker": {"replicas": 3}, "pytorch": {"countMasterAsWorker": False}}, 4),
        ("tensorflow", {"worker": {"replicas": 2}, "tensorflow": {"ps": {"replicas": 2}}}, 5),
    ],
)
def test_gang_scheduling_waits_for_every_pod_by_default(
    framework: str, overrides: dict, pods: int
) -> None:
    values = job_values(
        framework,
        scheduling={"gang": {"enabled": True}, "priorityClassName": "batch"},
        **overrides,
    )
    policy = render_job(values)["spec"]["runPolicy"]["schedulingPolicy"]

    assert policy == {"minAvailable": pods, "priorityClass": "batch"}


def test_gang_scheduling_with_explicit_size_queue_and_timeout() -> None:
    gang = {"enabled": True, "minAvailable": 3, "queue": "research", "scheduleTimeoutSeconds": 600}
    values = job_values("mpi", worker={"replicas": 4}, scheduling={"gang": gang})

    assert render_job(values)["spec"]["runPolicy"]["schedulingPolicy"] == {
        "minAvailable": 3,
        "queue": "research",
        "scheduleTimeoutSeconds": 600,
    }


def test_no_scheduling_policy_without_gang_scheduling() -> None:
    assert "schedulingPolicy" not in render_job(job_values("mpi"))["spec"]["runPolicy"]


@pytest.mark.parametrize(
    ("framework", "role"), [("mpi", "Worker"), ("tensorflow", "Worker"), ("pytorch", "Worker")]
)
def test_worker_spread_required_puts_one_worker_per_node(framework: str, role: str) -> None:
    values = job_values(
        framework, worker={"replicas": 4, "gpus": 1}, scheduling={"workerSpread": "required"}
    )
    job = render_job(values, release="lstm-4x1")
    anti = pod_spec(job, role)["affinity"]["podAntiAffinity"]
    assert anti == {
        "requiredDuringSchedulingIgnoredDuringExecution": [
            {
                "labelSelector": {
                    "matchLabels": {
                        "app.kubernetes.io/instance": "lstm-4x1",
                        "app.kubernetes.io/component": "worker",
                    }
                },
                "topologyKey": "kubernetes.io/hostname",
            }
        ]
    }
    # The selector must match the workers' own labels, or it would spread nothing.
    labels = replica_specs(job)[role]["template"]["metadata"]["labels"]
    assert labels["app.kubernetes.io/component"] == "worker"
    assert labels["app.kubernetes.io/instance"] == "lstm-4x1"


def test_worker_spread_preferred_and_none() -> None:
    preferred = job_values("mpi", scheduling={"workerSpread": "preferred"})
    terms = pod_spec(render_job(preferred), "Worker")["affinity"]["podAntiAffinity"]
    assert terms["preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"] == 100
    assert "affinity" not in pod_spec(render_job(job_values("mpi")), "Worker")
    assert "affinity" not in pod_spec(render_job(preferred), "Launcher")


def test_each_role_has_its_own_tolerations_before_the_jobs() -> None:
    gpu = {"key": "nvidia.com/gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
    spot = {"key": "spot", "operator": "Exists", "effect": "NoSchedule"}
    values = job_values(
        "mpi",
        worker={
            "gpus": 4,
            "nodeSelector": {"trainstack.io/pool": "gpu-v100"},
            "tolerations": [gpu],
        },
        mpi={"launcher": {"nodeSelector": {"trainstack.io/pool": "cpu"}}},
        scheduling={"tolerations": [spot]},
    )
    job = render_job(values)

    worker, launcher = pod_spec(job, "Worker"), pod_spec(job, "Launcher")
    assert worker["nodeSelector"] == {"trainstack.io/pool": "gpu-v100"}
    assert worker["tolerations"] == [gpu, spot]
    # The launcher is on the CPU pool: only the job-wide toleration, no GPU one.
    assert launcher["nodeSelector"] == {"trainstack.io/pool": "cpu"}
    assert launcher["tolerations"] == [spot]
