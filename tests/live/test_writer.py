"""The writer through the real client against the loopback API server: where each object
lives, the apply and delete requests, and answers that are not the API's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.apiserver import RecordedApi, Route, kubeconfig, serve
from trainstack.core.errors import ClusterError
from trainstack.live.api import ApiReader
from trainstack.live.kubeconfig import Target
from trainstack.live.transport import ReadLimits
from trainstack.live.writer import APPLY_PATCH, ClusterWriter, ObjectRef

JOB = ObjectRef("kubeflow.org/v2beta1", "MPIJob", "mpijobs", "vision", "run-1")
SERVICE = ObjectRef("v1", "Service", "services", "vision", "run-1-tensorboard")
TOKEN = "test-token-not-a-secret"


@pytest.fixture()
def api() -> RecordedApi:
    return RecordedApi()


@pytest.fixture()
def writer(api: RecordedApi, tmp_path: Path) -> Iterator[ClusterWriter]:
    for url in serve(api):
        path = kubeconfig(tmp_path / "k", url)
        target = Target(path, None, json.loads(path.read_text()))
        yield ClusterWriter(ApiReader(target, ReadLimits(timeout=5, deadline=10)))


def test_paths_of_group_and_core_kinds_with_names_quoted() -> None:
    assert JOB.path == "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs/run-1"
    assert SERVICE.path == "/api/v1/namespaces/vision/services/run-1-tensorboard"
    odd = ObjectRef("v1", "Service", "services", "a/b", "x?y")
    assert odd.path == "/api/v1/namespaces/a%2Fb/services/x%3Fy"


def test_apply_is_a_server_side_apply_of_trainstacks_never_forced(
    api: RecordedApi, writer: ClusterWriter
) -> None:
    document = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "run-1-tensorboard"}}
    api.routes.append(Route(SERVICE.path, {}, 201, json.dumps(document).encode(), method="PATCH"))
    assert writer.apply(SERVICE, document, dry_run=True) == document
    writer.apply(SERVICE, document, dry_run=False)

    dry, real = api.requests
    assert dry.query == {"fieldManager": "trainstack", "force": "false", "dryRun": "All"}
    assert real.query == {"fieldManager": "trainstack", "force": "false"}
    assert dry.content_type == real.content_type == APPLY_PATCH
    assert json.loads(real.body) == document
    assert api.authorizations == [f"Bearer {TOKEN}"] * 2


def test_get_of_a_missing_object_is_none(writer: ClusterWriter) -> None:
    assert writer.get(JOB) is None


def test_delete_names_the_uid_and_takes_the_pods_with_the_job(
    api: RecordedApi, writer: ClusterWriter
) -> None:
    api.routes.append(Route(JOB.path, {}, 200, b'{"kind": "Status"}', method="DELETE"))
    writer.delete(JOB, "uid-1", dry_run=True)

    (request,) = api.requests
    assert (request.method, request.query) == ("DELETE", {"dryRun": "All"})
    assert json.loads(request.body) == {
        "apiVersion": "v1",
        "kind": "DeleteOptions",
        "propagationPolicy": "Background",
        "preconditions": {"uid": "uid-1"},
    }


def test_an_answer_that_is_no_kubernetes_status_says_so(
    api: RecordedApi, writer: ClusterWriter
) -> None:
    api.routes.append(
        Route(JOB.path, {}, 502, b"<html>bad gateway</html>", "text/html", method="PATCH")
    )
    with pytest.raises(ClusterError) as raised:
        writer.apply(JOB, {}, dry_run=True)
    message = str(raised.value)
    assert message.startswith("checking (server dry run) MPIJob vision/run-1: the API server ")
    assert "answered 502 (text/html), not as the Kubernetes API does" in message
    assert TOKEN not in message


def test_a_success_that_is_no_object_is_an_error(api: RecordedApi, writer: ClusterWriter) -> None:
    api.routes.append(Route(JOB.path, {}, 200, b"[]", method="PATCH"))
    with pytest.raises(ClusterError, match="the answer is no JSON object"):
        writer.apply(JOB, {}, dry_run=False)
