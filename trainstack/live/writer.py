"""The only writes trainstack makes to a cluster: the objects of ``trainstack run``, by
server-side apply, and their deletion by ``trainstack runs --delete``.

Every request goes through the reader's bounded client (:attr:`ApiReader.http`: the same
transport, time and size bounds and credentials as every read). An apply is
``PATCH <object path>?fieldManager=trainstack&force=false`` with the content type
``application/apply-patch+yaml`` and the object as JSON (which YAML reads), so that the
API server records trainstack as the manager of the fields it set and refuses, with a
409 Conflict, to take over a field another manager owns (``force=false``; Kubernetes
"Server-Side Apply", https://kubernetes.io/docs/reference/using-api/server-side-apply/,
sections "Field management" and "Conflicts"). ``dry_run`` adds ``dryRun=All``: the
server runs every admission step, webhooks included, and stores nothing. A delete is
``DELETE <object path>`` with ``propagationPolicy: Background`` (the job's pods go with
it) and the object's ``uid`` as a precondition: the object checked is the one deleted.
What the server refuses is one :class:`~trainstack.core.errors.ClusterError` with its
reason (:mod:`trainstack.live.refusal`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import msgspec

from trainstack.core.errors import ClusterError
from trainstack.live.api import ApiReader
from trainstack.live.refusal import refused

FIELD_MANAGER = "trainstack"
"""The field manager of every object trainstack applies (``metadata.managedFields``)."""
APPLY_PATCH = "application/apply-patch+yaml"


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
        root = "/api" if "/" not in self.api_version else "/apis"
        parts = [self.namespace, self.plural, self.name]
        namespace, plural, name = (quote(part, safe="") for part in parts)
        return f"{root}/{self.api_version}/namespaces/{namespace}/{plural}/{name}"

    def shown(self) -> str:
        """``MPIJob vision/imagenet-tensorflow-k3x9q2-1``."""
        return f"{self.kind} {self.namespace}/{self.name}"


class ClusterWriter:
    """Server-side apply and delete, through a reader's bounded client."""

    def __init__(self, reader: ApiReader) -> None:
        self.reader = reader

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return self.reader.where()

    def get(self, ref: ObjectRef) -> dict[str, Any] | None:
        """The object as the server has it; ``None`` when it does not exist."""
        return self._send("GET", ref, f"reading {ref.shown()}", missing_ok=True)

    def apply(self, ref: ObjectRef, document: dict[str, Any], dry_run: bool) -> dict[str, Any]:
        """Apply ``document`` as trainstack's (never forced); the object the server returns."""
        params = {"fieldManager": FIELD_MANAGER, "force": "false"}
        if dry_run:
            params["dryRun"] = "All"
        what = f"{'checking (server dry run) ' if dry_run else 'applying '}{ref.shown()}"
        body = json.dumps(document, sort_keys=True).encode("utf-8")
        answer = self._send("PATCH", ref, what, params=params, body=body, patch=True)
        assert answer is not None  # a 404 is an error here
        return answer

    def delete(self, ref: ObjectRef, uid: str, dry_run: bool) -> None:
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
        self._send("DELETE", ref, what + ref.shown(), params=params, body=body)

    def _send(
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
            response = self.reader.http.request(
                method, ref.path, params=params, content=body, headers=headers
            )
            data = response.read()
            kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            document = msgspec.json.decode(data) if kind == "application/json" and data else None
            if response.is_error:
                if missing_ok and response.status_code == 404:
                    return None
                answer = refused(response.status_code, kind, document)
                raise ClusterError(f"{what}: {answer} ({where})")
            if not isinstance(document, dict):
                raise ClusterError(f"{what}: the answer is no JSON object ({where})")
        return document
