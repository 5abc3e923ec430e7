"""The writer health uses, through the real client against the loopback API server."""

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
from trainstack.live.writes import ClusterWriter, collection_path

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
