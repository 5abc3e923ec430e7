"""Range queries through the real HTTP client against a loopback Prometheus HTTP API: the
recorded answer read as the API documents it, and one clear error for each way a server
misbehaves, within the command's time and memory bounds."""

from __future__ import annotations

import math
import socket
import time
import tracemalloc
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.live.apiserver import RecordedApi, serve
from tests.live.recorded_prometheus import (
    CREATED,
    QUERY_RANGE,
    Misbehaving,
    recorded,
    serve_answer,
    serve_with,
)
from trainstack.config.telemetry import PrometheusUrl
from trainstack.core.errors import TelemetryError
from trainstack.live.options import ClusterOptions
from trainstack.live.prometheus import MAX_ANSWER_BYTES, PrometheusReader
from trainstack.live.prometheus_connect import connect_prometheus

PREFIX = "/prom"


def _no_cluster() -> object:
    raise AssertionError("a URL without credentials reads nothing of the cluster")


@pytest.fixture()
def api() -> RecordedApi:
    return RecordedApi()


@pytest.fixture()
def url(api: RecordedApi) -> Iterator[str]:
    for served in serve(api):
        yield served + PREFIX


def _reader(url: str, timeout: float = 5.0, deadline: float = 30.0) -> PrometheusReader:
    prometheus = PrometheusUrl.model_validate({"kind": "http-api", "url": url})
    options = ClusterOptions(timeout=timeout, deadline=deadline)
    return connect_prometheus(prometheus, _no_cluster, options)  # type: ignore[arg-type]


def _query(reader: PrometheusReader, end: float = CREATED + 30) -> object:
    return reader.query_range('{__name__="up"}', CREATED, end, 15, "reading")


def test_the_recorded_answer_is_read_as_the_api_documents_it(api: RecordedApi, url: str) -> None:
    serve_answer(api, PREFIX, recorded())
    answer = _reader(url).query_range("{x}", CREATED, CREATED + 30, 15, "reading")
    power, active = answer.series
    assert power.labels["__name__"] == "DCGM_FI_DEV_POWER_USAGE"
    assert power.labels["exported_pod"] == "imagenet-tensorflow-worker-0"
    # [t, "NaN"] is a gap: left out and counted, never a number.
    assert power.times == (CREATED, CREATED + 30) and power.values == (251.1, 263.9)
    assert power.not_a_number == 1
    assert active.values == (0.0, 0.812345, 0.799)
    (sent,) = api.seen
    request = urlsplit(sent)
    assert request.path == PREFIX + QUERY_RANGE
    assert dict(parse_qsl(request.query)) == {
        "query": "{x}",
        "start": "1714989600.000",
        "end": "1714989630.000",
        "step": "15",
    }


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (
            503,
            {"status": "error", "errorType": "timeout", "error": "query timed out"},
            "answered 503 (timeout: query timed out): the query timed out or was aborted",
        ),
        (
            422,
            {"status": "error", "errorType": "execution", "error": "many-to-many matching"},
            "answered 422 (execution: many-to-many matching)",
        ),
        (
            400,
            {"status": "error", "errorType": "bad_data", "error": 'invalid parameter "step"'},
            'answered 400 (bad_data: invalid parameter "step")',
        ),
        (401, {"status": "error", "error": "\x1b[31mno"}, "(\\x1b[31mno): the credentials"),
    ],
)
def test_an_error_answer_is_one_clear_error(
    api: RecordedApi, url: str, status: int, body: object, said: str
) -> None:
    serve_answer(api, PREFIX, body, status)
    with pytest.raises(TelemetryError) as raised:
        _query(_reader(url))
    message = str(raised.value)
    assert message.startswith(f"reading: Prometheus at {url} ")
    assert said in message and "\n" not in message and "\x1b" not in message


@pytest.mark.parametrize(
    ("body", "content_type", "said"),
    [
        (b"<html>Bad Gateway</html>", "text/html", "answered 502 (text/html), not the JSON"),
        (b'{"status":"success","data":', "application/json", "not the Prometheus HTTP API's"),
        (
            b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},'
            b'"values":[[1714989600,0.5]]}]}}',
            "application/json",
            "Expected `str`, got `float`",
        ),
        (
            b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},'
            b'"values":[[1714989600,"fast"]]}]}}',
            "application/json",
            "the value 'fast', not a number",
        ),
        (
            b'{"status":"success","data":{"resultType":"vector","result":[]}}',
            "application/json",
            "answered a vector, not the matrix of a range query",
        ),
        (
            b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},'
            b'"values":'
            + str([[CREATED + i, "1"] for i in range(4)]).replace("'", '"').encode()
            + b"}]}}",
            "application/json",
            "answered 4 points in one series, more than the 3 the query's start, end and step",
        ),
        (b"[" * 100 + b"]" * 100, "application/json", "JSON nested more than 64 deep: refused"),
    ],
)
def test_a_malformed_answer_is_one_clear_error(
    api: RecordedApi, url: str, body: bytes, content_type: str, said: str
) -> None:
    status = 502 if content_type == "text/html" else 200

    def send(handler: object) -> None:
        handler.send_response(status)  # type: ignore[attr-defined]
        handler.send_header("Content-Type", content_type)  # type: ignore[attr-defined]
        handler.send_header("Content-Length", str(len(body)))  # type: ignore[attr-defined]
        handler.end_headers()  # type: ignore[attr-defined]
        handler.wfile.write(body)  # type: ignore[attr-defined]

    serve_with(api, PREFIX, send)
    with pytest.raises(TelemetryError, match="^reading: ") as raised:
        _query(_reader(url))
    assert said in str(raised.value)


def test_an_endless_answer_is_refused_within_bounded_memory(api: RecordedApi, url: str) -> None:
    serve_with(api, PREFIX, Misbehaving().endless)
    reader = _reader(url)
    tracemalloc.start()
    try:
        with pytest.raises(TelemetryError) as raised:
            _query(reader)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"an answer larger than {MAX_ANSWER_BYTES} bytes: refused" in str(raised.value)
    assert peak < 3 * MAX_ANSWER_BYTES


def test_a_trickling_answer_stops_at_the_deadline(api: RecordedApi, url: str) -> None:
    serve_with(api, PREFIX, Misbehaving(seconds=30).slow)
    started = time.monotonic()
    with pytest.raises(TelemetryError) as raised:
        _query(_reader(url, timeout=1, deadline=2))
    assert time.monotonic() - started < 15
    assert "not done within --deadline 2 s" in str(raised.value)


def test_an_unreachable_prometheus_is_one_clear_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(TelemetryError, match="cannot reach Prometheus at http://127.0.0.1"):
        _query(_reader(f"http://127.0.0.1:{port}"))


def test_a_nan_series_is_kept_empty_and_counted(api: RecordedApi, url: str) -> None:
    answer = recorded()
    for series in answer["data"]["result"]:
        series["values"] = [[time_, "NaN"] for time_, _ in series["values"]]
    answer["data"]["result"][1]["values"][2][1] = "+Inf"
    serve_answer(api, PREFIX, answer)
    power, active = _query(_reader(url)).series  # type: ignore[attr-defined]
    assert (power.values, power.not_a_number) == ((), 3)
    assert (active.values, active.not_a_number) == ((), 3)
    assert not any(math.isnan(v) for v in power.values)
