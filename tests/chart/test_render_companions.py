"""Opt-in companions of a job: TensorBoard (a Deployment and a Service) and code sync (an
init container filling a shared volume), as Arena's --tensorboard and --sync-mode."""

from __future__ import annotations

from tests.chart.jobs import container, job_values, pod_spec, render_job, render_kinds
from trainstack.training_job.code_sync import GIT_SYNC_IMAGE, RSYNC_IMAGE
from trainstack.training_job.tensorboard import TENSORBOARD_IMAGE

DATA = {"claimName": "tfdata", "mountPath": "/data/mnist"}


def test_tensorboard_reads_the_log_directory_from_its_claim_read_only() -> None:
    values = job_values(
        "tensorflow",
        datasets=[{"claimName": "imagenet", "mountPath": "/imagenet"}, DATA],
        tensorboard={"enabled": True, "logDir": "/data/mnist/models"},
    )
    kinds = render_kinds(values, release="tf-estimator")

    assert sorted(kinds) == ["Deployment", "Service", "TFJob"]
    deployment, service = kinds["Deployment"], kinds["Service"]
    assert (
        deployment["metadata"]["name"] == service["metadata"]["name"] == "tf-estimator-tensorboard"
    )
    pod = deployment["spec"]["template"]["spec"]
    (board,) = pod["containers"]
    assert board["image"] == TENSORBOARD_IMAGE
    assert board["command"] == [
        "tensorboard",
        "--logdir",
        "/data/mnist/models",
        "--host",
        "0.0.0.0",
    ]
    assert board["volumeMounts"] == [{"name": "logs", "mountPath": "/data/mnist", "readOnly": True}]
    assert pod["volumes"] == [
        {"name": "logs", "persistentVolumeClaim": {"claimName": "tfdata", "readOnly": True}}
    ]
    assert board["resources"] == {
        "requests": {"cpu": "250m", "memory": "512Mi"},
        "limits": {"memory": "2Gi"},
    }
    assert pod["automountServiceAccountToken"] is False
    # the Service selects TensorBoard's pod, not the job's
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert service["spec"]["selector"] == selector
    assert selector == {
        "app.kubernetes.io/instance": "tf-estimator",
        "app.kubernetes.io/component": "tensorboard",
    }
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["ports"] == [
        {"name": "tensorboard", "port": 6006, "targetPort": 6006, "protocol": "TCP"}
    ]


def test_tensorboard_on_the_results_claim_keeps_its_sub_path() -> None:
    values = job_values(
        "pytorch",
        results={"claimName": "out", "mountPath": "/results", "subPath": "runs/a"},
        tensorboard={"enabled": True, "logDir": "/results/tb", "serviceType": "NodePort"},
    )
    kinds = render_kinds(values)

    (board,) = kinds["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert board["volumeMounts"] == [
        {"name": "logs", "mountPath": "/results", "readOnly": True, "subPath": "runs/a"}
    ]
    assert kinds["Service"]["spec"]["type"] == "NodePort"


def test_without_tensorboard_the_job_is_alone() -> None:
    assert sorted(render_kinds(job_values("tensorflow", datasets=[DATA]))) == ["TFJob"]


def test_git_sync_clones_once_into_the_code_volume_of_every_pod() -> None:
    values = job_values(
        "mpi",
        codeSync={
            "mode": "git",
            "git": {
                "repository": "https://github.com/cheyang/models.git",
                "credentialsSecret": "git",
            },
            "mountPath": "/root/code",
        },
    )
    job = render_job(values)

    for role in ("Launcher", "Worker"):
        preflight, init = pod_spec(job, role)["initContainers"]
        assert preflight["name"] == "preflight"  # the checks first (docs/preflight.md)
        assert init["name"] == "code-sync"
        assert init["image"] == GIT_SYNC_IMAGE
        assert init["env"] == [
            {"name": "GIT_SYNC_REPO", "value": "https://github.com/cheyang/models.git"},
            {"name": "GIT_SYNC_ROOT", "value": "/code"},
            # the checkout is named after the repository, as Arena does
            {"name": "GIT_SYNC_DEST", "value": "models"},
            {"name": "GIT_SYNC_ONE_TIME", "value": "true"},
            {
                "name": "GIT_SYNC_USERNAME",
                "valueFrom": {"secretKeyRef": {"name": "git", "key": "username"}},
            },  # noqa: E501
            {
                "name": "GIT_SYNC_PASSWORD",
                "valueFrom": {"secretKeyRef": {"name": "git", "key": "password"}},
            },  # noqa: E501
        ]
        assert init["volumeMounts"] == [{"name": "code-sync", "mountPath": "/code"}]
        assert init["securityContext"]["allowPrivilegeEscalation"] is False
        mounts = {m["mountPath"]: m["name"] for m in container(job, role)["volumeMounts"]}
        assert mounts["/root/code"] == "code-sync"
        assert {"name": "code-sync", "emptyDir": {}} in pod_spec(job, role)["volumes"]


def test_rsync_copies_its_source_with_arenas_command() -> None:
    values = job_values(
        "pytorch", codeSync={"mode": "rsync", "rsync": {"source": "rsync://files/code/project/"}}
    )
    _, init = pod_spec(render_job(values), "Master")["initContainers"]

    assert init["image"] == RSYNC_IMAGE
    assert init["command"] == ["rsync", "-avP", "rsync://files/code/project/", "/code"]
    assert "env" not in init


def test_without_code_sync_no_init_container_and_no_volume() -> None:
    job = render_job(job_values("pytorch", preflight={"enabled": False}, worker={"replicas": 2}))

    assert "initContainers" not in pod_spec(job, "Worker")
    assert "code-sync" not in {v["name"] for v in pod_spec(job, "Worker")["volumes"]}
