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

EVERYTHING = {
    "image": {"pullPolicy": "Always", "pullSecrets": ["acr"]},
    "args": ["--epochs", "1"],
    "workingDir": "/workspace",
    "env": {"NCCL_DEBUG": "INFO"},
    "labels": {"team": "vision"},
    "annotations": {"example.com/note": "x"},
    "worker": {
        "replicas": 2,
        "gpus": 4,
        "image": "registry.example.com/w:1",
        "resources": {"requests": {"cpu": 8, "memory": "32Gi"}, "limits": {"memory": "64Gi"}},
        "nodeSelector": {"pool": "gpu"},
    },
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
}


def _render(values: dict[str, Any]) -> list[dict[str, Any]]:
    return render_training_job(values, release="conformance", namespace="team")


@pytest.mark.parametrize("path", CI_VALUES, ids=lambda path: path.name)
def test_example_values_render_conforming_objects(path: Path) -> None:
    assert validate_objects(_render(read_values_file(path)), crd_dir()) == 1


@pytest.mark.parametrize("framework", sorted(KITCHEN_SINKS))
def test_every_option_at_once_renders_a_conforming_job(framework: str) -> None:
    assert validate_objects(_render(KITCHEN_SINKS[framework]), crd_dir()) == 1


def test_the_ci_values_cover_every_framework() -> None:
    frameworks = {read_values_file(path)["framework"] for path in CI_VALUES}
    assert frameworks == {"mpi", "tensorflow", "pytorch"}


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
