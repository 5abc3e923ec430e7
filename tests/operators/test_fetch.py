"""Release manifests: downloaded over HTTPS at deploy time and refused unless pinned."""

from __future__ import annotations

import hashlib
import http.server
import ssl
import threading
from collections.abc import Iterator

import pytest
import trustme

from trainstack.core.errors import ManifestError
from trainstack.operators.fetch import MAX_MANIFEST_BYTES, fetch_manifest

MANIFEST = b"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: mpi-operator\n"
KEY = "trainstack:operators.mpiOperator.manifestSha256"
SOURCE = "stacks/Pulumi.aiacc.yaml"


class _Server:
    def __init__(self, url: str, context: ssl.SSLContext) -> None:
        self.url = url
        self.context = context
        self.body = MANIFEST


@pytest.fixture()
def server() -> Iterator[_Server]:
    """An HTTPS server on loopback (a throw-away CA) serving ``server.body`` at every path."""
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            body = state.body
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    certificate.configure_cert(server_context)
    httpd.socket = server_context.wrap_socket(httpd.socket, server_side=True)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    state = _Server(
        f"https://127.0.0.1:{httpd.server_address[1]}/mpi-operator.yaml", client_context
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


def _fetch(server: _Server, sha256: str) -> str:
    return fetch_manifest(server.url, sha256, source=SOURCE, key=KEY, context=server.context)


def test_the_pinned_manifest_is_returned(server: _Server) -> None:
    assert _fetch(server, hashlib.sha256(MANIFEST).hexdigest()) == MANIFEST.decode()


def test_a_manifest_with_another_digest_is_refused_naming_the_pin(server: _Server) -> None:
    server.body = MANIFEST + b"# changed upstream\n"
    actual = hashlib.sha256(server.body).hexdigest()
    pinned = hashlib.sha256(MANIFEST).hexdigest()
    with pytest.raises(ManifestError) as caught:
        _fetch(server, pinned)
    assert str(caught.value) == (
        f"operator manifest of {KEY} in {SOURCE}: {server.url} has sha256 {actual}, not the "
        f"pinned {pinned}: the file changed or the mirror serves something else; nothing "
        "was applied"
    )


def test_an_oversized_manifest_is_refused(server: _Server) -> None:
    server.body = b"#" * (MAX_MANIFEST_BYTES + 10)
    with pytest.raises(ManifestError, match="is larger than 32 MiB"):
        _fetch(server, "0" * 64)


def test_an_unreachable_server_is_one_clear_error() -> None:
    with pytest.raises(ManifestError, match=r"could not download https://127\.0\.0\.1:9/x"):
        fetch_manifest("https://127.0.0.1:9/x", "0" * 64, source=SOURCE, key=KEY)


def test_plain_http_is_refused() -> None:
    with pytest.raises(ManifestError, match="is not an https:// URL"):
        fetch_manifest("http://example.com/m.yaml", "0" * 64, source=SOURCE, key=KEY)


def test_an_untrusted_certificate_is_refused(server: _Server) -> None:
    with pytest.raises(ManifestError, match="CERTIFICATE_VERIFY_FAILED"):
        fetch_manifest(server.url, hashlib.sha256(MANIFEST).hexdigest(), source=SOURCE, key=KEY)
