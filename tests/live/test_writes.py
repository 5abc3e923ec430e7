"""The writers health and run use, through the real client against the loopback API
server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.apiserver import RecordedApi, Route, kubeconfig, serve
from trainstack.core.errors import ClusterError
from trainstack.live.api import ApiReader
from trainstack.live.kubeconfig import Target, parse_kubeconfig
from trainstack.live.transport import ReadLimits
from trainstack.live.writes import (
    APPLY_PATCH,
    ClusterWriter,
    ObjectRef,
    ObjectWriter,
    collection_path,
)

JOBS = "/apis/batch/v1/namespaces/trainstack-health/jobs"


@pytest.fixture()
def api() -> RecordedApi:
    return RecordedApi()


@pytest.fixture()
def writer(api: RecordedApi, tmp_path: Path) -> Iterator[ClusterWriter]:
    for url in serve(api):
        path = kubeconfig(tmp_path / "kubeconfig", url)
        target = Target(path, None, parse_kubeconfig(path.read_text(), str(path)))
        yield ClusterWriter(ApiReader(target, ReadLimits(timeout=5, deadline=30)))


def _status(code: int, message: str) -> bytes:
    return json.dumps(
        {
            "kind": "Status",
            "apiVersion": "v1",
            "status": "Failure",
            "message": message,
            "code": code,
        }
    ).encode()


def test_paths() -> None:
    assert collection_path("v1", "pods", "ns") == "/api/v1/namespaces/ns/pods"
    assert collection_path("batch/v1", "jobs", "ns") == "/apis/batch/v1/namespaces/ns/jobs"
    assert collection_path("v1", "namespaces") == "/api/v1/namespaces"


def test_create_sends_the_object(api: RecordedApi, writer: ClusterWriter) -> None:
    api.routes.append(Route(JOBS, {}, 201, b"{}", method="POST"))
    writer.create(JOBS, {"kind": "Job", "metadata": {"name": "a"}}, "creating Job a", "create")
    ((method, path, body),) = api.requests
    assert (method, path, json.loads(body)) == (
        "POST",
        JOBS,
        {"kind": "Job", "metadata": {"name": "a"}},
    )


def test_a_403_names_what_the_user_may_not_do(api: RecordedApi, writer: ClusterWriter) -> None:
    body = _status(403, 'jobs.batch is forbidden: User "dev" cannot create resource "jobs"')
    api.routes.append(Route(JOBS, {}, 403, body, method="POST"))
    expected = (
        r"creating Job a: the API server answered 403 Forbidden: jobs.batch is forbidden.*"
        r"the kubeconfig's user may not create jobs in namespace trainstack-health"
    )
    with pytest.raises(ClusterError, match=expected):
        writer.create(JOBS, {}, "creating Job a", "create jobs in namespace trainstack-health")


def test_delete_by_selector_and_an_absent_collection(
    api: RecordedApi, writer: ClusterWriter
) -> None:
    api.routes.append(Route(JOBS, {}, 404, _status(404, "not found"), method="DELETE"))
    writer.delete_all(JOBS, "trainstack.io/health-run=ab12", "deleting", "delete jobs")
    ((method, path, _),) = api.requests
    assert method == "DELETE"
    assert path == (
        f"{JOBS}?labelSelector=trainstack.io%2Fhealth-run%3Dab12&propagationPolicy=Background"
    )


def test_a_list_that_is_no_list_is_one_error(api: RecordedApi, writer: ClusterWriter) -> None:
    api.routes.append(Route(JOBS, {}, 200, b'{"items": 3}'))
    with pytest.raises(ClusterError, match="listing jobs: the answer is no list of objects"):
        writer.list(JOBS, "a=b", "listing jobs")


# `trainstack run` and `runs --delete`: one object at a time, by server-side apply.

JOB = ObjectRef("kubeflow.org/v2beta1", "MPIJob", "mpijobs", "vision", "run-1")
SERVICE = ObjectRef("v1", "Service", "services", "vision", "run-1-tensorboard")
TOKEN = "test-token-not-a-secret"


@pytest.fixture()
def objects(api: RecordedApi, tmp_path: Path) -> Iterator[ObjectWriter]:
    for url in serve(api):
        path = kubeconfig(tmp_path / "kubeconfig", url)
        target = Target(path, None, parse_kubeconfig(path.read_text(), str(path)))
        yield ObjectWriter(ApiReader(target, ReadLimits(timeout=5, deadline=10)))


def test_paths_of_group_and_core_kinds_with_names_quoted() -> None:
    assert JOB.path == "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs/run-1"
    assert SERVICE.path == "/api/v1/namespaces/vision/services/run-1-tensorboard"
    odd = ObjectRef("v1", "Service", "services", "a/b", "x?y")
    assert odd.path == "/api/v1/namespaces/a%2Fb/services/x%3Fy"


def test_apply_is_a_server_side_apply_of_trainstacks_never_forced(
    api: RecordedApi, objects: ObjectWriter
) -> None:
    document = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "run-1-tensorboard"}}
    api.routes.append(Route(SERVICE.path, {}, 201, json.dumps(document).encode(), method="PATCH"))
    assert objects.apply(SERVICE, document, dry_run=True) == document
    objects.apply(SERVICE, document, dry_run=False)

    dry, real = api.received
    assert dry.query == {"fieldManager": "trainstack", "force": "false", "dryRun": "All"}
    assert real.query == {"fieldManager": "trainstack", "force": "false"}
    assert dry.content_type == real.content_type == APPLY_PATCH
    assert json.loads(real.body) == document
    assert api.authorizations == [f"Bearer {TOKEN}"] * 2


def test_get_of_a_missing_object_is_none(objects: ObjectWriter) -> None:
    assert objects.get(JOB) is None


def test_delete_names_the_uid_and_takes_the_pods_with_the_job(
    api: RecordedApi, objects: ObjectWriter
) -> None:
    api.routes.append(Route(JOB.path, {}, 200, b'{"kind": "Status"}', method="DELETE"))
    objects.remove(JOB, "uid-1", dry_run=True)

    (request,) = api.received
    assert (request.method, request.query) == ("DELETE", {"dryRun": "All"})
    assert json.loads(request.body) == {
        "apiVersion": "v1",
        "kind": "DeleteOptions",
        "propagationPolicy": "Background",
        "preconditions": {"uid": "uid-1"},
    }


def test_an_answer_that_is_no_kubernetes_status_says_so(
    api: RecordedApi, objects: ObjectWriter
) -> None:
    api.routes.append(
        Route(JOB.path, {}, 502, b"<html>bad gateway</html>", "text/html", method="PATCH")
    )
    with pytest.raises(ClusterError) as raised:
        objects.apply(JOB, {}, dry_run=True)
    message = str(raised.value)
    assert message.startswith("checking (server dry run) MPIJob vision/run-1: the API server ")
    assert "answered 502 (text/html), not as the Kubernetes API does" in message
    assert TOKEN not in message


def test_a_success_that_is_no_object_is_an_error(api: RecordedApi, objects: ObjectWriter) -> None:
    api.routes.append(Route(JOB.path, {}, 200, b"[]", method="PATCH"))
    with pytest.raises(ClusterError, match="the answer is no JSON object"):
        objects.apply(JOB, {}, dry_run=False)
