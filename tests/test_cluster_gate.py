"""A real preview/up checks the jobs against the CRDs the cluster itself serves, before any
experiment is created (the program run as the engine runs it, against a loopback API)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pulumi
import pytest

from tests.conformance import crd_dir
from tests.live.apiserver import RecordedApi, Route, kubeconfig, serve
from tests.stack_helpers import REPO, existing_ack_config
from trainstack.config.pulumi_config import pulumi_config_map
from trainstack.core.project import Project
from trainstack.plan.engine import run_program

CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tfjobs.kubeflow.org"


def _crd(schema_file: str) -> dict[str, Any]:
    """A TFJob CRD as the API server returns it, with the schema of ``schema_file``."""
    schema = json.loads((crd_dir() / schema_file).read_text())
    for key in ("$schema", "title", "$comment"):
        schema.pop(key, None)
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "tfjobs.kubeflow.org"},
        "spec": {
            "group": "kubeflow.org",
            "names": {"kind": "TFJob", "plural": "tfjobs"},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": schema},
                }
            ],
        },
    }


@pytest.fixture()
def api() -> Iterator[tuple[RecordedApi, str]]:
    recorded = RecordedApi()
    server = serve(recorded)
    url = next(server)
    yield recorded, url
    next(server, None)


def _run(tmp_path: Path, url: str) -> list[str]:
    """Run the program for a stack without placeholders; the names of what it registered."""
    config = existing_ack_config()  # an existing ACK cluster: its kubeconfig is served here
    config["trainstack:cluster"].update(
        clusterId="c0123456789abcdef", vpcId="vpc-abc", vswitchIds=["vsw-abc"]
    )
    for pool in config["trainstack:nodePools"]:
        pool["login"] = {"keyName": "ops"}
    # the AI Acceleration component's name and version are placeholders in the example
    del config["trainstack:acceleration"]["component"]
    # The MNIST job mounts its results claim only (here from an NFS export: no data stack).
    config["trainstack:datasets"] = [
        {
            "name": "training-results",
            "namespace": "nlp",
            "capacity": "1Ti",
            "accessModes": ["ReadWriteMany"],
            "source": {"type": "nfs", "server": "10.0.0.5", "path": "/training-results"},
        }
    ]
    config["trainstack:operators"] = {"trainingOperator": {"version": "1.9.4"}}
    config["trainstack:experiments"] = {
        "select": ["tf-multiworker-mnist"],
        # the image the experiment says to build, as if built and pushed
        "overrides": {
            "tf-multiworker-mnist": {"image": {"name": "registry.example.com/nlp/tf-mwms:1"}}
        },
    }
    config["trainstack:kubeconfig"] = {"secure": "v1:unused"}
    raw, secret_keys = pulumi_config_map({"config": config}, "stacks/Pulumi.test.yaml")
    raw["trainstack:kubeconfig"] = kubeconfig(tmp_path / "kubeconfig", url).read_text()
    project = Project.load(REPO)
    run = run_program(project.main_program, project.name, "test", raw, secret_keys, preview=False)
    return [r.name for r in run.resources]


def test_jobs_that_fit_the_clusters_crd_are_released(
    tmp_path: Path, api: tuple[RecordedApi, str]
) -> None:
    recorded, url = api
    recorded.routes.append(Route(CRD_PATH, {}, body=json.dumps(_crd("tfjob-v1.json")).encode()))
    assert "tf-multiworker-mnist-release" in _run(tmp_path, url)
    assert CRD_PATH in recorded.seen


def test_a_cluster_with_another_operators_crd_stops_before_any_experiment(
    tmp_path: Path, api: tuple[RecordedApi, str]
) -> None:
    """The stack says training-operator, but the cluster has Arena's TFJob CRD (installed
    by hand): the job's runPolicy and seccompProfile would be dropped."""
    recorded, url = api
    arena = _crd("tfjob-v1-arena.json")
    recorded.routes.append(Route(CRD_PATH, {}, body=json.dumps(arena).encode()))
    with pytest.raises(pulumi.RunError) as caught:
        _run(tmp_path, url)
    message = str(caught.value)
    assert (
        "field(s) of the experiments would be refused or dropped by the cluster's own CRDs"
        in message
    )
    assert "no experiment was created" in message
    assert (
        "TFJob tf-multiworker-mnist: at spec: additionalProperties: Additional properties are "
        "not allowed ('runPolicy' was unexpected)"
    ) in message


def test_a_missing_crd_is_named(tmp_path: Path, api: tuple[RecordedApi, str]) -> None:
    _, url = api
    with pytest.raises(
        pulumi.RunError, match="has no CustomResourceDefinition tfjobs.kubeflow.org"
    ):
        _run(tmp_path, url)


def test_a_failed_gate_is_reported_once(
    tmp_path: Path, api: tuple[RecordedApi, str], caplog: pytest.LogCaptureFixture
) -> None:
    """Every release waits on the gate, so the SDK keeps the gate's error in a future per
    release; when they are collected (the next run in the process resets the SDK) the error
    is not logged again, traceback and all."""
    _, url = api
    for attempt in ("first", "second"):
        with pytest.raises(pulumi.RunError):
            (tmp_path / attempt).mkdir()
            _run(tmp_path / attempt, url)
    gc.collect()
    assert [record.getMessage() for record in caplog.records if record.name == "asyncio"] == []
