"""The loopback API server as a cluster that takes ``trainstack run``'s objects: each
server-side apply is answered as the API server answers it (the object with its ``uid``,
``creationTimestamp`` and the applying manager in ``managedFields``), kept unless it was a
dry run, and listed by label with the phases a test scripts, one step per list.

The refusals under ``tests/live/data/submit`` are the API server's ``Status`` answers,
worded as its sources word them: RBAC's 403 (``NewForbidden``), server-side apply's 409
(kubernetes/kubernetes de741dc854090f5315798b2ad6c0407900de25d0,
``staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go``,
``getConflictMessage``), a CRD schema's 422, an admission webhook's denial and its "does
not support dry run" (3d7848758c5f79b1d313f52b584e925b32262c69,
``staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go``).
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.live.apiserver import RecordedApi, Route, reply_json

DATA = Path(__file__).parents[1] / "live" / "data" / "submit"
MPIJOBS = "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs"
CAMPAIGN = "abc123"
CREATED = "2026-12-01T10:00:{:02d}Z"


def run_name(number: int, experiment: str = "imagenet-tensorflow") -> str:
    """The name of run ``number`` of the test's campaign."""
    return f"{experiment}-{CAMPAIGN}-{number}"


class Jobs:
    """The jobs applied to the loopback cluster (see the module's documentation)."""

    def __init__(self, api: RecordedApi, collection: str = MPIJOBS) -> None:
        self.api = api
        self.collection = collection
        self.stored: dict[str, dict[str, Any]] = {}
        self.phases: dict[str, list[str]] = {}
        """Per job, the phases of the next lists (the last one stays)."""

    def accept(self, *names: str) -> None:
        """Server-side apply of these jobs succeeds (dry run or not)."""
        for name in names:
            self.api.routes.append(
                Route(f"{self.collection}/{name}", {}, method="PATCH", send=self._applied)
            )

    def refuse(self, name: str, status_file: str, dry_run: bool = True) -> None:
        """The apply of ``name`` (its dry run, or the real one) gets this recorded Status."""
        body = (DATA / status_file).read_bytes()
        status = json.loads(body)["code"]
        query: dict[str, str | None] = {"dryRun": "All"} if dry_run else {"dryRun": None}
        route = Route(f"{self.collection}/{name}", query, status, body, method="PATCH")
        self.api.routes.insert(0, route)

    def listed(self, selector: str) -> None:
        """``GET collection?labelSelector=selector`` lists the stored jobs, each with the
        next of its scripted phases."""
        self.api.routes.append(Route(self.collection, {"labelSelector": selector}, send=self._list))

    def _applied(self, handler: BaseHTTPRequestHandler) -> None:
        request = self.api.received[-1]
        document = json.loads(request.body)
        metadata = document["metadata"]
        number = len(self.stored) + 1
        metadata["uid"] = f"00000000-0000-4000-8000-{number:012d}"
        metadata["creationTimestamp"] = CREATED.format(number)
        metadata["managedFields"] = [
            {
                "manager": request.query.get("fieldManager"),
                "operation": "Apply",
                "apiVersion": document["apiVersion"],
            }
        ]
        if request.query.get("dryRun") != "All":
            self.stored[metadata["name"]] = document
        reply_json(handler, 201, document)

    def _list(self, handler: BaseHTTPRequestHandler) -> None:
        items = []
        for name, document in self.stored.items():
            script = self.phases.get(name) or ["Created"]
            phase = script.pop(0) if len(script) > 1 else script[0]
            items.append({**document, "status": _status(phase)})
        kind = self.stored and next(iter(self.stored.values()))["kind"] or "MPIJob"
        reply_json(
            handler,
            200,
            {"kind": f"{kind}List", "apiVersion": "kubeflow.org/v2beta1", "items": items},
        )


def _status(phase: str) -> dict[str, Any]:
    status: dict[str, Any] = {"conditions": [{"type": phase, "status": "True"}]}
    if phase != "Created":
        status["startTime"] = "2026-12-01T10:01:00Z"
    if phase in ("Succeeded", "Failed"):
        status["completionTime"] = "2026-12-01T10:21:00Z"
    return status


def applies(api: RecordedApi) -> list[tuple[str, str]]:
    """(``dry run`` or ``apply``, job name) of every PATCH, in order."""
    return [
        (
            "dry run" if request.query.get("dryRun") == "All" else "apply",
            request.path.split("/")[-1],
        )
        for request in api.received
        if request.method == "PATCH"
    ]
