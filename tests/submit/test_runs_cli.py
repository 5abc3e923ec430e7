"""``trainstack runs STACK``: the runs ``trainstack run`` created, listed by label; ``--delete``
removes only what trainstack applied (labels and field manager), after a server dry run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import Ran, run
from tests.live.apiserver import RecordedApi, Route
from tests.submit.jobs import MPIJOBS, run_name

SELECTOR = "trainstack.io/submitted-by=trainstack-run,trainstack.io/stack=aiacc"
COLLECTIONS = [
    (f"/apis/kubeflow.org/{version}/namespaces/{namespace}/{plural}", kind)
    for version, plural, kind in (
        ("v2beta1", "mpijobs", "MPIJob"),
        ("v1", "tfjobs", "TFJob"),
        ("v1", "pytorchjobs", "PyTorchJob"),
    )
    for namespace in ("nlp", "vision")
]
SERVICES = "/api/v1/namespaces/vision/services"
DEPLOYMENTS = "/apis/apps/v1/namespaces/vision/deployments"
SUCCESS = {"kind": "Status", "apiVersion": "v1", "status": "Success", "code": 200}


def _job(name: str, manager: str, created: str, overrides: str = "{}") -> dict[str, Any]:
    return {
        "apiVersion": "kubeflow.org/v2beta1",
        "kind": "MPIJob",
        "metadata": {
            "name": name,
            "namespace": "vision",
            "uid": f"uid-{name}",
            "creationTimestamp": created,
            "labels": {
                "trainstack.io/experiment": "imagenet-tensorflow",
                "trainstack.io/submitted-by": "trainstack-run",
                "trainstack.io/stack": "aiacc",
            },
            "annotations": {"trainstack.io/overrides": overrides},
            "managedFields": [{"manager": manager, "operation": "Apply"}],
        },
        "spec": {
            "runPolicy": {"ttlSecondsAfterFinished": 604800},
            "mpiReplicaSpecs": {"Launcher": {"replicas": 1}, "Worker": {"replicas": 4}},
        },
        "status": {
            "conditions": [{"type": "Succeeded", "status": "True"}],
            "completionTime": "2026-12-01T11:00:00Z",
        },
    }


@pytest.fixture()
def listed(api: RecordedApi) -> list[dict[str, Any]]:
    """Two runs of trainstack's in vision (the second with --set values), one job labelled
    alike that someone else applied; no run anywhere else."""
    items = [
        _job(run_name(2), "trainstack", "2026-12-01T10:00:02Z", '{"worker":{"gpus":2}}'),
        _job(run_name(1), "trainstack", "2026-12-01T10:00:01Z"),
        _job("lookalike", "kubectl", "2026-12-01T09:00:00Z"),
    ]
    for path, kind in COLLECTIONS:
        found = items if path == MPIJOBS else []
        api.list_of(path, SELECTOR, f"{kind}List", "kubeflow.org/v1", found)
    return items


def _runs(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(root, "runs", "aiacc", *args, "--kubeconfig", str(cluster), monkeypatch=monkeypatch)


def test_runs_are_listed_oldest_first_with_their_set_values(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    listed: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = _runs(root, cluster, monkeypatch)

    assert ran.code == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("stack aiacc, context 'aiacc-admin' (http://127.0.0.1:")
    assert lines[2].split() == [
        *("run", "experiment", "kind", "namespace", "phase"),
        *("created", "completed", "ttl"),
    ]
    assert [line.split()[0] for line in lines[3:6]] == ["lookalike", run_name(1), run_name(2)]
    assert lines[4].split()[1:] == [
        *("imagenet-tensorflow", "MPIJob", "vision", "Succeeded"),
        *("2026-12-01T10:00:01Z", "2026-12-01T11:00:00Z", "7", "day(s)"),
    ]
    assert f"overrides {run_name(2)}: --set worker.gpus=2" in lines
    assert {r.method for r in api.received} == {"GET"}
    assert sorted(r.path for r in api.received) == sorted(path for path, _ in COLLECTIONS)


def test_delete_removes_the_run_and_its_tensorboard_after_a_dry_run(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    listed: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    instance = f"{SELECTOR},app.kubernetes.io/instance={run_name(1)}"
    service = {
        "metadata": {
            "name": f"{run_name(1)}-tensorboard",
            "namespace": "vision",
            "uid": "uid-service",
            "managedFields": [{"manager": "trainstack", "operation": "Apply"}],
        }
    }
    api.list_of(SERVICES, instance, "ServiceList", "v1", [service])
    api.list_of(DEPLOYMENTS, instance, "DeploymentList", "apps/v1", [])
    for path in (f"{MPIJOBS}/{run_name(1)}", f"{SERVICES}/{run_name(1)}-tensorboard"):
        api.routes.append(Route(path, {}, method="DELETE", body=json.dumps(SUCCESS).encode()))
    ran = _runs(root, cluster, monkeypatch, "--delete", run_name(1))

    assert ran.code == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        f"deleted MPIJob vision/{run_name(1)}",
        f"deleted Service vision/{run_name(1)}-tensorboard",
    ]
    deletes = [r for r in api.received if r.method == "DELETE"]
    assert [(r.path.split("/")[-1], r.query.get("dryRun")) for r in deletes] == [
        (run_name(1), "All"),
        (f"{run_name(1)}-tensorboard", "All"),
        (run_name(1), None),
        (f"{run_name(1)}-tensorboard", None),
    ]
    options = json.loads(deletes[2].body)
    assert options["propagationPolicy"] == "Background"  # the job's pods go with it
    assert options["preconditions"] == {"uid": f"uid-{run_name(1)}"}


def test_delete_never_touches_what_trainstack_did_not_apply(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    listed: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    instance = f"{SELECTOR},app.kubernetes.io/instance=lookalike"
    api.list_of(SERVICES, instance, "ServiceList", "v1", [])
    api.list_of(DEPLOYMENTS, instance, "DeploymentList", "apps/v1", [])
    ran = _runs(root, cluster, monkeypatch, "--delete", "lookalike")

    assert ran.code == 2
    assert "MPIJob vision/lookalike was not applied by trainstack (its managers: kubectl)" in (
        ran.stderr
    )
    assert not [r for r in api.received if r.method == "DELETE"]


def test_delete_of_a_job_that_is_no_run_names_the_runs(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    listed: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = _runs(root, cluster, monkeypatch, "--delete", "imagenet-tensorflow")

    assert ran.code == 2
    assert "no run 'imagenet-tensorflow' of stack aiacc on the cluster" in ran.stderr
    assert f"its runs: lookalike, {run_name(1)}, {run_name(2)}" in ran.stderr
    assert not [r for r in api.received if r.method == "DELETE"]
