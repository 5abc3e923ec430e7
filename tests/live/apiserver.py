"""A loopback HTTP server answering the Kubernetes API paths trainstack calls with recorded
responses (``tests/live/data``), so the real lightkube client code runs end to end.

Routes match a method (GET unless said), a path and the query parameters that select what
is returned (``labelSelector``, ``container``, ``tailLines``...; a parameter matched as
``None`` must be absent, as ``continue`` on a list's first page); anything else is answered
404 with a ``Status`` like the API server's and recorded in :attr:`RecordedApi.unmatched`.
A route can also write its answer itself (:attr:`Route.send`: slow, endless or malformed
answers), or give the next requests other answers (:attr:`Route.later`). Every request is
kept (:attr:`RecordedApi.requests`; with its query and content type:
:attr:`RecordedApi.received`).
"""

from __future__ import annotations

import builtins
import json
import ssl
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

DATA = Path(__file__).parent / "data"


@dataclass
class Route:
    """What one request gets: a JSON document (or a list's items), or a log's text."""

    path: str
    query: dict[str, str | None]
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    send: Callable[[BaseHTTPRequestHandler], None] | None = None
    """Writes the whole answer itself (status line, headers, body), instead of the above."""
    method: str = "GET"
    """The HTTP method it answers (``POST`` and ``DELETE`` too: the writes of health)."""
    later: list[tuple[int, bytes]] = field(default_factory=list)
    """Answers (status, body) of the next requests, one each; the last one then stays."""


@dataclass(frozen=True)
class Request:
    """One request as the server received it."""

    method: str
    path: str
    query: dict[str, str]
    content_type: str
    body: bytes


@dataclass
class RecordedApi:
    """The routes, and every request seen (path?query), for assertions."""

    replacements: dict[str, str] = field(default_factory=dict)
    routes: list[Route] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)
    """The ``Authorization`` header of each request (empty when none)."""
    requests: list[tuple[str, str, bytes]] = field(default_factory=list)
    """(method, path?query, body) of every request, in order."""
    received: list[Request] = field(default_factory=list)
    """Every request with its method, path, query, content type and body, in order."""
    server_errors: list[str] = field(default_factory=list)
    """What failed in the server itself while answering (not the client going away)."""

    def _text(self, name: str) -> str:
        text = (DATA / name).read_text(encoding="utf-8")
        for old, new in self.replacements.items():
            text = text.replace(old, new)
        return text

    def items(self, name: str) -> list[Any]:
        """The objects of a data file (one object, or a list of them)."""
        loaded = json.loads(self._text(name))
        return loaded if isinstance(loaded, list) else [loaded]

    def list(self, path: str, selector: str, kind: str, api_version: str, *files: str) -> None:
        """``GET path?labelSelector=selector`` answers a ``kind`` list of the files' objects."""
        items = [item for name in files for item in self.items(name)]
        self.list_of(path, selector, kind, api_version, items)

    def list_of(
        self, path: str, selector: str, kind: str, api_version: str, items: builtins.list[Any]
    ) -> None:
        """``GET path?labelSelector=selector`` answers a ``kind`` list of ``items``."""
        document = {
            "apiVersion": api_version,
            "kind": kind,
            "metadata": {"resourceVersion": "183200"},
            "items": items,
        }
        route = Route(path, {"labelSelector": selector}, body=json.dumps(document).encode())
        self.routes.append(route)

    def paged(
        self, path: str, kind: str, api_version: str, items: builtins.list[Any], page: int = 500
    ) -> None:
        """``GET path?limit=N`` answers ``kind`` lists of ``page`` items, each page but the
        last with a ``continue`` token for the next (the API server's chunking)."""
        pages = [items[start : start + page] for start in range(0, len(items), page)] or [[]]
        for number, chunk in enumerate(pages):
            metadata: dict[str, Any] = {"resourceVersion": "183200"}
            if number + 1 < len(pages):
                metadata["continue"] = f"page-{number + 1}"
            document = {"apiVersion": api_version, "kind": kind, "metadata": metadata}
            document["items"] = chunk
            query: dict[str, str | None] = {"continue": f"page-{number}" if number else None}
            self.routes.append(Route(path, query, body=json.dumps(document).encode()))

    def object(self, path: str, document: Any, status: int = 200) -> None:
        """``GET path`` answers ``document`` (an object, or a ``Status`` with ``status``)."""
        self.routes.append(Route(path, {}, status, json.dumps(document).encode()))

    def log(self, path: str, container: str, text_file: str | Path, status: int = 200) -> None:
        """``GET .../pods/NAME/log?container=...``: the log's text (or a JSON Status)."""
        body = (
            Path(text_file).read_bytes()
            if isinstance(text_file, Path)
            else self._text(text_file).encode()
        )
        content_type = "text/plain" if status == 200 else "application/json"
        self.routes.append(Route(path, {"container": container}, status, body, content_type))

    def answer(self, raw_path: str, method: str = "GET") -> Route:
        url = urlsplit(raw_path)
        query = dict(parse_qsl(url.query, keep_blank_values=True))
        self.seen.append(raw_path)
        for route in self.routes:
            if (
                route.method == method
                and route.path == url.path
                and all(query.get(k) == v for k, v in route.query.items())
            ):
                if route.later:
                    route.status, route.body = route.later.pop(0)
                return route
        self.unmatched.append(raw_path)
        status = {
            "kind": "Status",
            "apiVersion": "v1",
            "status": "Failure",
            "reason": "NotFound",
            "message": "the server could not find the requested resource",
            "code": 404,
        }
        return Route(url.path, {}, 404, json.dumps(status).encode())


def reply_json(handler: BaseHTTPRequestHandler, status: int, document: Any) -> None:
    """Answer ``document`` as JSON with ``status`` (for routes that write their answer)."""
    body = json.dumps(document).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _handler(api: RecordedApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self._handle("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._handle("POST")

        def do_PATCH(self) -> None:  # noqa: N802
            self._handle("PATCH")

        def do_DELETE(self) -> None:  # noqa: N802
            self._handle("DELETE")

        def _handle(self, method: str) -> None:
            api.authorizations.append(self.headers.get("Authorization", ""))
            length = int(self.headers.get("Content-Length") or 0)
            self.body = self.rfile.read(length) if length else b""
            api.requests.append((method, self.path, self.body))
            url = urlsplit(self.path)
            api.received.append(
                Request(
                    method,
                    url.path,
                    dict(parse_qsl(url.query, keep_blank_values=True)),
                    self.headers.get("Content-Type", ""),
                    self.body,
                )
            )
            route = api.answer(self.path, method)
            if route.send is not None:
                route.send(self)
                return
            self.send_response(route.status)
            self.send_header("Content-Type", route.content_type)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    return Handler


class _Server(ThreadingHTTPServer):
    """An error while answering goes to the test process's own stderr, and is kept on the
    api: socketserver prints it to ``sys.stderr``, which is the stderr of a command run
    in this process (and checked whole) while it runs. A client that went away (a follow
    stopped, a deadline reached) is no error."""

    api: RecordedApi

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        self.api.server_errors.append(repr(error))
        traceback.print_exc(file=sys.__stderr__)


def serve(api: RecordedApi, tls: ssl.SSLContext | None = None) -> Iterator[str]:
    """Serve ``api`` on 127.0.0.1 (a free port) while the generator is open; yield its URL
    (``https`` with ``tls``, the server's context)."""
    server = _Server(("127.0.0.1", 0), _handler(api))
    server.api = api
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def kubeconfig(
    path: Path,
    server: str,
    context: str = "aiacc-admin",
    user: dict[str, Any] | None = None,
    cluster: dict[str, Any] | None = None,
) -> Path:
    """A kubeconfig whose one context points at ``server`` (token auth, like ACK's, unless
    ``user`` says otherwise; ``cluster``: more of the cluster's fields)."""
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": context,
        "clusters": [{"name": "aiacc", "cluster": {"server": server, **(cluster or {})}}],
        "users": [{"name": "aiacc-admin", "user": user or {"token": "test-token-not-a-secret"}}],
        "contexts": [{"name": context, "context": {"cluster": "aiacc", "user": "aiacc-admin"}}],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
