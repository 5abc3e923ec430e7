"""The few writes ``trainstack health`` makes, through the same bounded transport as every
read (:class:`~trainstack.live.transport.GuardedTransport`: time, size, nesting,
credentials): create an object, delete the objects of one label selector, delete one
object. Nothing else of trainstack writes to a cluster.

Calls: ``POST /api/v1/namespaces``, ``POST /apis/batch/v1/namespaces/NS/jobs``, ``POST
/apis/kubeflow.org/v2beta1/namespaces/NS/mpijobs``; ``DELETE`` of the same collections
with ``labelSelector`` and ``propagationPolicy=Background`` (the Jobs' pods go with them,
by Kubernetes' garbage collector); ``DELETE /api/v1/namespaces/NAME``. Every failure is one
:class:`~trainstack.core.errors.ClusterError` naming the action, the context and the
server; a 403 names the permission the kubeconfig's user lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import httpx2
import msgspec
from lightkube import ApiError

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.live.api import ApiReader


def collection_path(api_version: str, plural: str, namespace: str | None = None) -> str:
    """``/api/v1/namespaces/NS/pods``, ``/apis/batch/v1/namespaces/NS/jobs``..."""
    base = f"/api/{api_version}" if "/" not in api_version else f"/apis/{api_version}"
    where = f"/namespaces/{quote(namespace, safe='')}" if namespace else ""
    return f"{base}{where}/{plural}"


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
