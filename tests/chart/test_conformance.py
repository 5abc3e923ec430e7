"""Every object the chart renders is one the API server accepts as written.

Custom resources are checked against the upstream CRD schemas (strictly: no field the
server would prune), pod templates and metadata against Kubernetes' own schemas.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.chart.jobs import CI_VALUES, job_values
from tests.conformance import (
    CRD_DIR_ENV,
    SKIP_REASON,
    ConformanceError,
    crd_dir,
    validate_object,
    validate_objects,
)
from trainstack.chart.render import render_training_job
from trainstack.training_job import read_values_file
from trainstack.training_job.frameworks import frameworks

EVERYTHING = {
    "image": {"pullPolicy": "Always", "pullSecrets": ["acr"]},
    "args": ["--epochs", "1"],
    "workingDir": "/workspace",
    "env": {
        "NCCL_DEBUG": "INFO",
        "POD_IP": {"valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
        "TOKEN": {"valueFrom": {"secretKeyRef": {"name": "wandb", "key": "token"}}},
        "BATCH": {"valueFrom": {"configMapKeyRef": {"name": "hp", "key": "batch"}}},
        "MEMORY": {"valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}}},
    },
    "envFrom": [{"secretRef": {"name": "s3"}}, {"configMapRef": {"name": "hp"}, "prefix": "HP_"}],
    "labels": {"team": "vision"},
    "annotations": {"example.com/note": "x"},
    "podAnnotations": {"scheduling.k8s.io/group-name": "conformance"},
    "worker": {
        "replicas": 2,
        "gpus": 4,
        "image": "registry.example.com/w:1",
        "resources": {"requests": {"cpu": 8, "memory": "32Gi"}, "limits": {"memory": "64Gi"}},
        "nodeSelector": {"pool": "gpu"},
        "env": {"ROLE": "worker"},
        "restartPolicy": "OnFailure",
        "readinessProbe": {"tcpSocket": {"port": 2222}, "initialDelaySeconds": 2},
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}},
        "security": {"runAsUser": 1001, "capabilities": {"add": ["IPC_LOCK"]}},
    },
    "codeSync": {
        "mode": "git",
        "git": {
            "repository": "https://example.com/team/code.git",
            "branch": "main",
            "revision": "0123abc",
            "depth": 1,
            "credentialsSecret": "git-credentials",
        },
        "resources": {"requests": {"cpu": "100m"}},
    },
    "tensorboard": {"enabled": True, "logDir": "/results/logs", "serviceType": "NodePort"},
    "datasets": [
        {"claimName": "imagenet", "mountPath": "/data", "readOnly": True},
        {"claimName": "coco", "mountPath": "/coco", "subPath": "train"},
    ],
    "results": {"claimName": "results", "mountPath": "/results", "subPath": "run"},
    "shm": {"sizeLimit": "8Gi"},
    "hostPaths": [{"path": "/mnt/cache", "mountPath": "/cache"}],
    "network": {"hostNetwork": True, "rdma": {"enabled": True}},
    "security": {
        "hostIPC": True,
        "capabilities": {"add": ["SYS_PTRACE"]},
        "automountServiceAccountToken": True,
        "serviceAccountName": "trainer",
        "runAsUser": 1000,
        "runAsGroup": 1000,
        "runAsNonRoot": True,
        "fsGroup": 1000,
    },
    "scheduling": {
        "nodeSelector": {"zone": "a"},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        "priorityClassName": "high",
        "schedulerName": "volcano",
        "workerSpread": "required",
        "gang": {"enabled": True, "queue": "q", "scheduleTimeoutSeconds": 60},
    },
    "runPolicy": {
        "cleanPodPolicy": "All",
        "ttlSecondsAfterFinished": 3600,
        "backoffLimit": 2,
        "activeDeadlineSeconds": 7200,
    },
}
KITCHEN_SINKS = {
    "mpi": job_values(
        "mpi",
        **EVERYTHING,
        mpi={"sshPort": 2222, "launcher": {"resources": {"requests": {"cpu": 1}}}},
    ),
    "tensorflow": job_values(
        "tensorflow",
        **EVERYTHING,
        tensorflow={
            "successPolicy": "AllWorkers",
            "ps": {"replicas": 2},
            "evaluator": {"replicas": 1, "gpus": 1},
        },
    ),
    "pytorch": job_values("pytorch", **EVERYTHING, pytorch={"nprocPerNode": "gpu"}),
    "pytorch-elastic": job_values(
        "pytorch",
        **EVERYTHING,
        pytorch={
            "nprocPerNode": 4,
            "master": {"replicas": 0},
            "elasticPolicy": {
                "minReplicas": 1,
                "maxReplicas": 4,
                "rdzvBackend": "etcd-v2",
                "rdzvHost": "etcd",
                "rdzvPort": 2379,
                "rdzvId": "run-1",
                "rdzvConf": {"timeout": "900"},
                "standalone": False,
                "maxRestarts": 10,
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "memory",
                            "target": {"type": "AverageValue", "averageValue": "8Gi"},
                        },
                    }
                ],
            },
        },
    ),
    # everything a TrainJob carries (the rules refuse the rest)
    "trainjob": job_values(
        "trainjob",
        **{
            key: value
            for key, value in EVERYTHING.items()
            if key not in ("workingDir", "envFrom", "codeSync", "network", "security", "image")
        },
        image={"pullSecrets": ["acr"]},
        network={"rdma": {"enabled": True}},
        security={
            "capabilities": {"add": ["SYS_PTRACE"]},
            "serviceAccountName": "trainer",
            "runAsUser": 1000,
            "fsGroup": 1000,
        },
        trainjob={"runtime": "deepspeed-distributed", "numProcPerNode": 4},
    ),
}
# what a TrainJob cannot carry, taken out of the shared options
KITCHEN_SINKS["trainjob"]["worker"] = {
    key: value
    for key, value in KITCHEN_SINKS["trainjob"]["worker"].items()
    if key not in ("restartPolicy", "readinessProbe", "livenessProbe")
}
KITCHEN_SINKS["trainjob"]["scheduling"] = {
    key: value
    for key, value in KITCHEN_SINKS["trainjob"]["scheduling"].items()
    if key not in ("priorityClassName", "schedulerName", "gang")
}
KITCHEN_SINKS["trainjob"]["runPolicy"] = {"activeDeadlineSeconds": 7200}


def _render(values: dict[str, Any]) -> list[dict[str, Any]]:
    return render_training_job(values, release="conformance", namespace="team")


@pytest.mark.parametrize("path", CI_VALUES, ids=lambda path: path.name)
def test_example_values_render_conforming_objects(path: Path) -> None:
    assert validate_objects(_render(read_values_file(path)), crd_dir()) == 1


@pytest.mark.parametrize("case", sorted(KITCHEN_SINKS))
def test_every_option_at_once_renders_conforming_objects(case: str) -> None:
    # the job, TensorBoard's Deployment and Service
    assert validate_objects(_render(KITCHEN_SINKS[case]), crd_dir()) == 3


def test_the_ci_values_and_kitchen_sinks_cover_every_framework() -> None:
    registered = {spec.name for spec in frameworks()}
    assert {read_values_file(path)["framework"] for path in CI_VALUES} == registered
    assert {values["framework"] for values in KITCHEN_SINKS.values()} == registered


# The validator itself must catch what it is there for, or the tests above prove nothing.


@pytest.fixture(scope="module")
def mpijob() -> dict[str, Any]:
    return _render(KITCHEN_SINKS["mpi"])[0]


def _broken(job: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    broken = copy.deepcopy(job)
    target = broken
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return broken


WORKER = ["spec", "mpiReplicaSpecs", "Worker"]
WORKER_CONTAINER = [*WORKER, "template", "spec", "containers", 0]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["spec", "slotPerWorker"], 1, r"'slotPerWorker' was unexpected"),
        (
            [*WORKER, "replicas"],
            "2",
            r"at spec\.mpiReplicaSpecs\.Worker\.replicas: type: '2' is not of type 'integer'",
        ),
        ([*WORKER_CONTAINER, "imagePullPolcy"], "Always", r"'imagePullPolcy' was unexpected"),
        ([*WORKER_CONTAINER, "resources", "limits", "cpu"], "lots", r"'lots' does not match"),
        (["metadata", "labels", "team"], "two words", r"invalid value 'two words' of label"),
        (["metadata", "nam"], "x", r"'nam' was unexpected"),
        ([*WORKER, "template", "metadata", "labels", "a/b/c"], "x", r"invalid label key 'a/b/c'"),
    ],
)
def test_the_validator_rejects_what_the_api_server_would(
    mpijob: dict[str, Any], path: list[Any], value: Any, message: str
) -> None:
    schemas = crd_dir()
    validate_object(mpijob, schemas)
    with pytest.raises(ConformanceError, match=message):
        validate_object(_broken(mpijob, path, value), schemas)


def test_core_objects_are_validated_with_kubernetes_schemas() -> None:
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}
    validate_object({**config_map, "data": {"k": "v"}})
    with pytest.raises(
        ConformanceError,
        match=r"ConfigMap a: 1 schema error.*\n  - at data\.k: type: 1 is not of type",
    ):
        validate_object({**config_map, "data": {"k": 1}})
    with pytest.raises(ConformanceError, match=r"invalid value 'a b' of label 'team'"):
        validate_object({**config_map, "metadata": {"name": "a", "labels": {"team": "a b"}}})


def test_validating_nothing_fails() -> None:
    with pytest.raises(ConformanceError, match="validated nothing"):
        validate_objects([])


def test_a_kind_without_a_schema_fails() -> None:
    job = {"apiVersion": "kubeflow.org/v1", "kind": "XGBoostJob", "metadata": {"name": "x"}}
    with pytest.raises(
        ConformanceError, match=r"no operator of the stack serves XGBoostJob kubeflow\.org/v1"
    ):
        validate_object(job, crd_dir())


def test_without_the_environment_variable_the_tests_skip_and_say_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(CRD_DIR_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="TRAINSTACK_CRD_DIR is not set"):
        crd_dir()
    assert "../shared/reference/crds" in SKIP_REASON
