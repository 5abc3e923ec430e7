"""The writes trainstack makes to a cluster, through the same bounded transport as every
read (:class:`~trainstack.live.transport.GuardedTransport`: time, size, nesting,
credentials); nothing else of trainstack writes to one.

``trainstack health``: create an object, delete the objects of one label selector, delete
one object. Calls: ``POST /api/v1/namespaces``, ``POST /apis/batch/v1/namespaces/NS/jobs``,
``POST /apis/kubeflow.org/v2beta1/namespaces/NS/mpijobs``; ``DELETE`` of the same
collections with ``labelSelector`` and ``propagationPolicy=Background`` (the Jobs' pods go
with them, by Kubernetes' garbage collector); ``DELETE /api/v1/namespaces/NAME``. A 403
names the permission the kubeconfig's user lacks.

``trainstack run`` and ``runs --delete``: server-side apply, ``PATCH <object
path>?fieldManager=trainstack&force=false`` with the content type
``application/apply-patch+yaml`` and the object as JSON (which YAML reads), so that the API
server records trainstack as the manager of the fields it set and refuses, with a 409
Conflict, to take over a field another manager owns (Kubernetes "Server-Side Apply",
https://kubernetes.io/docs/reference/using-api/server-side-apply/, "Field management" and
"Conflicts"); ``dryRun=All`` first: every admission step runs, webhooks included, and
nothing is stored. A run's object is deleted with ``propagationPolicy: Background`` and
its ``uid`` as a precondition: the object checked is the one deleted. What the server
refuses is one line with its reason (:mod:`trainstack.live.refusal`).

Every failure is one :class:`~trainstack.core.errors.ClusterError` naming the action, the
context and the server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx2
import msgspec
from lightkube import ApiError

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.live.api import ApiReader
from trainstack.live.refusal import refused

FIELD_MANAGER = "trainstack"
"""The field manager of every object trainstack applies (``metadata.managedFields``)."""
APPLY_PATCH = "application/apply-patch+yaml"


def collection_path(api_version: str, plural: str, namespace: str | None = None) -> str:
    """``/api/v1/namespaces/NS/pods``, ``/apis/batch/v1/namespaces/NS/jobs``..."""
    base = f"/api/{api_version}" if "/" not in api_version else f"/apis/{api_version}"
    where = f"/namespaces/{quote(namespace, safe='')}" if namespace else ""
    return f"{base}{where}/{plural}"


@dataclass(frozen=True)
class ObjectRef:
    """Where an object lives in the API: its kind's resource and its name."""

    api_version: str
    kind: str
    plural: str
    namespace: str
    name: str

    @property
    def path(self) -> str:
        """``/apis/GROUP/VERSION/namespaces/NS/PLURAL/NAME`` (``/api/v1/...`` for core kinds)."""
        collection = collection_path(self.api_version, self.plural, self.namespace)
        return f"{collection}/{quote(self.name, safe='')}"

    def shown(self) -> str:
        """``MPIJob vision/imagenet-tensorflow-k3x9q2-1``."""
        return f"{self.kind} {self.namespace}/{self.name}"


class ClusterWriter:
    """Create and delete, within the bounds of ``reader`` (its transport and limits)."""

    def __init__(self, reader: ApiReader) -> None:
        self.reader = reader
        self._http = httpx2.Client(
            base_url=reader.target.config().cluster.server,
            timeout=httpx2.Timeout(reader.limits.timeout),
            transport=reader.transport,
            trust_env=False,
        )

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return self.reader.where()

    def create(self, path: str, document: Mapping[str, Any], what: str, verb: str) -> None:
        """``POST path`` with ``document``; ``verb``: the RBAC words a 403 names."""
        self._send("POST", path, what, verb, content=msgspec.json.encode(document))

    def delete_all(self, path: str, selector: str, what: str, verb: str) -> None:
        """``DELETE path?labelSelector=selector``: the objects of one selector only."""
        params = {"labelSelector": selector, "propagationPolicy": "Background"}
        self._send("DELETE", path, what, verb, params=params, missing_ok=True)

    def delete(self, path: str, what: str, verb: str) -> None:
        """``DELETE path`` (already gone: nothing to do)."""
        self._send("DELETE", path, what, verb, missing_ok=True)

    def list(self, path: str, selector: str, what: str) -> list[dict[str, Any]]:
        """The items of ``GET path?labelSelector=selector`` (one page: trainstack's own
        objects, at most two per node)."""
        document = self._send("GET", path, what, "list", params={"labelSelector": selector})
        items = document.get("items") if isinstance(document, dict) else None
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise ClusterError(f"{what}: the answer is no list of objects ({self.reader.where()})")
        return items

    def _send(
        self,
        method: str,
        path: str,
        what: str,
        verb: str,
        params: Mapping[str, str] | None = None,
        content: bytes | None = None,
        missing_ok: bool = False,
    ) -> Any:
        headers = {"Content-Type": "application/json"} if content is not None else {}
        with self.reader.errors(what):
            response = self._http.request(
                method, path, params=params, content=content, headers=headers
            )
            if response.status_code == 404 and missing_ok:
                return None
            if response.status_code == 403:
                raise ClusterError(
                    f"{what}: the API server answered 403 Forbidden: {_message(response)}; the "
                    f"kubeconfig's user may not {verb} ({self.reader.where()}): grant it in "
                    "RBAC (docs/health.md lists what `trainstack health` needs)"
                )
            if response.is_error and response.headers.get("Content-Type") == "application/json":
                raise ApiError(request=response.request, response=response)
            response.raise_for_status()
            return msgspec.json.decode(response.content) if response.content else None


def _message(response: httpx2.Response) -> str:
    try:
        found = msgspec.json.decode(response.content)
    except msgspec.MsgspecError:
        return "(no Status)"
    message = found.get("message") if isinstance(found, dict) else None
    return printable(message if isinstance(message, str) else "(no message)")


class ObjectWriter(ClusterWriter):
    """One object at a time, by server-side apply (``trainstack run``), and deleted by its
    ``uid`` (``trainstack runs --delete``): every refusal the server's own words."""

    def get(self, ref: ObjectRef) -> dict[str, Any] | None:
        """The object as the server has it; ``None`` when it does not exist."""
        return self._exchange("GET", ref, f"reading {ref.shown()}", missing_ok=True)

    def apply(self, ref: ObjectRef, document: dict[str, Any], dry_run: bool) -> dict[str, Any]:
        """Apply ``document`` as trainstack's (never forced); the object the server returns."""
        params = {"fieldManager": FIELD_MANAGER, "force": "false"}
        if dry_run:
            params["dryRun"] = "All"
        what = f"{'checking (server dry run) ' if dry_run else 'applying '}{ref.shown()}"
        body = json.dumps(document, sort_keys=True).encode("utf-8")
        answer = self._exchange("PATCH", ref, what, params=params, body=body, patch=True)
        assert answer is not None  # a 404 is an error here
        return answer

    def remove(self, ref: ObjectRef, uid: str, dry_run: bool) -> None:
        """Delete the object whose ``metadata.uid`` is ``uid`` (and, in the background, what
        it owns: the job's pods)."""
        options = {
            "apiVersion": "v1",
            "kind": "DeleteOptions",
            "propagationPolicy": "Background",
            "preconditions": {"uid": uid},
        }
        params = {"dryRun": "All"} if dry_run else {}
        what = f"{'checking (server dry run) the deletion of ' if dry_run else 'deleting '}"
        body = json.dumps(options).encode("utf-8")
        self._exchange("DELETE", ref, what + ref.shown(), params=params, body=body)

    def _exchange(
        self,
        method: str,
        ref: ObjectRef,
        what: str,
        *,
        params: dict[str, str] | None = None,
        body: bytes | None = None,
        patch: bool = False,
        missing_ok: bool = False,
    ) -> dict[str, Any] | None:
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = APPLY_PATCH if patch else "application/json"
        where = self.where()
        with self.reader.errors(what):
            response = self._http.request(
                method, ref.path, params=params, content=body, headers=headers
            )
            kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            data = response.content
            document = msgspec.json.decode(data) if kind == "application/json" and data else None
            if response.is_error:
                if missing_ok and response.status_code == 404:
                    return None
                answer = refused(response.status_code, kind, document)
                raise ClusterError(f"{what}: {answer} ({where})")
            if not isinstance(document, dict):
                raise ClusterError(f"{what}: the answer is no JSON object ({where})")
        return document
