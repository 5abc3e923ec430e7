"""A Prometheus HTTP API on loopback, answering range queries in the recorded form
(``tests/live/data/prometheus/``, its README says where each part comes from), and the
ways a server misbehaves (slow, endless, malformed, 5xx, NaN).

:func:`dcgm_answer` builds the answer for every DCGM field of a run's GPUs with the
labels of the recorded file: one series per field and GPU, a value per step.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.live.apiserver import DATA, RecordedApi, Route
from trainstack.results.dcgm import FIELDS, DcgmField

RECORDED = DATA / "prometheus" / "query-range-dcgm.json"
QUERY_RANGE = "/api/v1/query_range"
CREATED = 1714989600.0
"""imagenet-tensorflow's creationTimestamp (2024-05-06T10:00:00Z, the recorded MPIJob)."""
COMPLETED = CREATED + 1500.0
"""Its completionTime (10:25:00Z)."""
GPU_NODES = ("cn-beijing.192.168.0.21", "cn-beijing.192.168.0.22",
             "cn-beijing.192.168.0.23", "cn-beijing.192.168.0.24")  # fmt: skip

Value = Callable[[DcgmField, str, int, int], str]
"""The value of a field on (node, GPU index) at a point index, as the API sends it."""


def recorded() -> Any:
    """The recorded answer (a fresh copy)."""
    return json.loads(RECORDED.read_text(encoding="utf-8"))


def _labels() -> dict[str, str]:
    return dict(recorded()["data"]["result"][0]["metric"])


def steady(field: DcgmField, node: str, gpu: int, index: int) -> str:
    """A healthy run: busy GPUs after a minute of start-up, no error, no throttling."""
    busy = index >= 4
    levels = {
        "DCGM_FI_PROF_SM_ACTIVE": 0.82 if busy else 0.0,
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": 0.41 if busy else 0.0,
        "DCGM_FI_PROF_DRAM_ACTIVE": 0.35 if busy else 0.0,
        "DCGM_FI_DEV_POWER_USAGE": 280.0 if busy else 60.0,
        "DCGM_FI_DEV_SM_CLOCK": 1530.0 if busy else 135.0,
        "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": 0.0 if busy else 1.0,
        "DCGM_FI_DEV_XID_ERRORS": 0.0,
    }
    if field.kind == "counter":
        return "1000" if field.unit == "ns" else "0"
    return f"{levels.get(field.name, 1.0e9 if busy else 0.0):g}"


def dcgm_answer(
    job: str = "imagenet-tensorflow",
    namespace: str = "vision",
    nodes: tuple[str, ...] = GPU_NODES,
    gpus_per_node: int = 4,
    start: float = CREATED,
    end: float = COMPLETED,
    step: int = 15,
    value: Value = steady,
    fields: tuple[DcgmField, ...] = FIELDS,
) -> dict[str, Any]:
    """The range answer of every field on every GPU of ``job``'s workers, one per node."""
    template = _labels()
    points = int((end - start) // step) + 1
    result: list[dict[str, Any]] = []
    for worker, node in enumerate(nodes):
        for gpu in range(gpus_per_node):
            for field in fields:
                labels = copy.deepcopy(template)
                labels.update(
                    {
                        "__name__": field.name,
                        "Hostname": node,
                        "gpu": str(gpu),
                        "device": f"nvidia{gpu}",
                        "exported_pod": f"{job}-worker-{worker}",
                        "exported_namespace": namespace,
                        "UUID": f"GPU-{worker:04d}{gpu:04d}-0000-0000-0000-000000000000",
                    }
                )
                values = [
                    [start + index * step, value(field, node, gpu, index)]
                    for index in range(points)
                ]
                result.append({"metric": labels, "values": values})
    result.sort(key=lambda item: sorted(item["metric"].items()))
    return {"status": "success", "data": {"resultType": "matrix", "result": result}}


def serve_answer(
    api: RecordedApi, prefix: str, answer: Any, status: int = 200, query: str | None = None
) -> None:
    """``GET {prefix}/api/v1/query_range`` (with ``query``, else any) answers ``answer`` as
    JSON; routes added later are matched first."""
    body = json.dumps(answer).encode()
    match: dict[str, str | None] = {} if query is None else {"query": query}
    api.routes.insert(0, Route(prefix + QUERY_RANGE, match, status, body))


@dataclass
class Misbehaving:
    """Answers no Prometheus should send, each written by the handler itself."""

    seconds: float = 0.0

    def slow(self, handler: BaseHTTPRequestHandler) -> None:
        """Headers at once, then one byte a second, for ``seconds``."""
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.end_headers()
        ends = time.monotonic() + self.seconds
        try:
            while time.monotonic() < ends:
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(0.2)
        except OSError:
            return

    def endless(self, handler: BaseHTTPRequestHandler) -> None:
        """A JSON answer that never ends (until the client hangs up)."""
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.end_headers()
        chunk = b'{"status":"success","data":{"resultType":"matrix","result":[' + b" " * 65536
        try:
            handler.wfile.write(chunk)
            while True:
                handler.wfile.write(b" " * 65536)
        except OSError:
            return


def serve_with(
    api: RecordedApi, prefix: str, send: Callable[[BaseHTTPRequestHandler], None]
) -> None:
    """``GET {prefix}/api/v1/query_range`` is answered by ``send``."""
    api.routes.insert(0, Route(prefix + QUERY_RANGE, {}, send=send))
