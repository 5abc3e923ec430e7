"""``trainstack inspect`` against hostile API servers: each ends in one clear error, in bounded
time and memory, with nothing written and nothing raw printed.

Each case reads a loopback server whose node list misbehaves one way: in a real process
(what users see: exit status, no traceback) where a regression could exhaust memory, crash
or hang the interpreter (huge, deep, compressed or endless answers; timeouts, deadlines),
else in this process (:func:`tests.cli_helpers.run`: an internal error raises there).
"""

from __future__ import annotations

import gzip
import json
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import run, run_process
from tests.live.apiserver import RecordedApi, Route, kubeconfig, serve
from tests.live.recorded_cluster import NODES, Shape, record_cluster, recorded
from trainstack.core.limits import MAX_API_PAGES, MAX_API_RESPONSE_BYTES

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")

Send = Callable[[Any], None]
CHUNK = 1 << 20


def _head(handler: Any, status: int = 200, **headers: str) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", headers.pop("content_type", "application/json"))
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()


@dataclass
class Sent:
    """How many bytes a route wrote before the client hung up."""

    bytes: int = 0


def huge(sent: Sent) -> Send:
    """A node list that never ends: a megabyte of nodes after another, until the client goes."""

    def send(handler: Any) -> None:
        _head(handler)
        node = json.dumps(recorded("node-cpu.json")).encode()
        block = b",".join([node] * (CHUNK // len(node)))
        handler.wfile.write(b'{"kind":"NodeList","apiVersion":"v1","items":[' + block)
        try:
            while sent.bytes < 4 * MAX_API_RESPONSE_BYTES:
                handler.wfile.write(b"," + block)
                sent.bytes += len(block) + 1
        except OSError:
            return

    return send


def deep(handler: Any) -> None:
    body = b'{"kind":"NodeList","items":[' + b"[" * 100_000 + b"]" * 100_000 + b"]}"
    _head(handler, Content_Length=str(len(body)))
    handler.wfile.write(body)


def bomb(handler: Any) -> None:
    """100 MiB of spaces, gzipped to about 100 KiB."""
    body = gzip.compress(b'{"items":[' + b" " * (100 << 20) + b"]}", compresslevel=9)
    _head(handler, Content_Encoding="gzip", Content_Length=str(len(body)))
    handler.wfile.write(body)


def slow(handler: Any) -> None:
    """Answers after 30 s: a client without a working --timeout waits that long."""
    time.sleep(30)
    _head(handler)
    handler.wfile.write(b'{"items":[]}')


def trickle(handler: Any) -> None:
    """Headers at once, then one byte every 0.2 s, for ever (each under --timeout)."""
    _head(handler)
    try:
        handler.wfile.write(b'{"items":[')
        for _ in range(300):
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.2)
    except OSError:
        return


def endless(handler: Any) -> None:
    """Every page says there is another one."""
    token = f"t{time.monotonic_ns()}"
    body = json.dumps({"kind": "NodeList", "metadata": {"continue": token}, "items": []}).encode()
    _head(handler, Content_Length=str(len(body)))
    handler.wfile.write(body)


def escapes(handler: Any) -> None:
    """A 500 whose message would clear the screen and set the terminal's title."""
    status = {
        "kind": "Status",
        "status": "Failure",
        "code": 500,
        "reason": "InternalError",
        "message": "etcd\x1b[2J\x1b]0;pwned\x07 timeout\r\nforged line",
    }
    body = json.dumps(status).encode()
    _head(handler, 500, Content_Length=str(len(body)))
    handler.wfile.write(body)


def html(handler: Any) -> None:
    """A load balancer's error page, and no Kubernetes ``Status``."""
    body = b"<html><body>502 Bad Gateway</body></html>"
    _head(handler, 502, content_type="text/html", Content_Length=str(len(body)))
    handler.wfile.write(body)


def no_content_type(handler: Any) -> None:
    handler.send_response(503)
    handler.send_header("Content-Length", "0")
    handler.end_headers()


@pytest.fixture()
def hostile(tmp_path: Path) -> Iterator[tuple[RecordedApi, Path]]:
    api = RecordedApi()
    for url in serve(api):
        yield api, kubeconfig(tmp_path / "aiacc.kubeconfig", url)


def _inspect(
    root: Path,
    api: RecordedApi,
    config: Path,
    send: Send,
    *args: str,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> Any:
    """The finished process (the command in this process when given ``monkeypatch``) and
    the seconds from the node list's request to its end.

    Timed from the request's arrival at the server, not from the process's start, so
    that how long Python takes to start and import on a loaded machine does not count."""
    arrived: list[float] = []

    def timed(handler: Any) -> None:
        arrived.append(time.monotonic())
        send(handler)

    api.routes.append(Route(NODES, {}, send=timed))
    record_cluster(api)
    command = ("inspect", "aiacc", "--kubeconfig", str(config), *args)
    if monkeypatch is None:
        ran = run_process(root, *command)
    else:
        ran = run(root, *command, monkeypatch=monkeypatch)
    elapsed = time.monotonic() - arrived[0] if arrived else 0.0
    assert ran.code == 2, ran.stderr
    assert "Traceback" not in ran.stderr and ran.stderr.count("error:") == 1
    assert ran.stderr.startswith("error: listing nodes: ") and ran.stderr.endswith("\n")
    assert ran.stderr.count("\n") == 1
    assert "\x1b" not in ran.stdout + ran.stderr and "\r" not in ran.stderr
    assert not (root / "facts").exists()
    return ran, elapsed


def test_a_never_ending_answer_is_cut_at_the_size_limit(
    root: Path, hostile: tuple[RecordedApi, Path]
) -> None:
    sent = Sent()
    ran, _ = _inspect(root, *hostile, huge(sent))
    assert f"an answer larger than {MAX_API_RESPONSE_BYTES} bytes: refused" in ran.stderr
    # Read up to the limit, then the connection dropped: memory stays bounded.
    assert sent.bytes < MAX_API_RESPONSE_BYTES + (16 << 20)


def test_a_deeply_nested_answer(root: Path, hostile: tuple[RecordedApi, Path]) -> None:
    ran, _ = _inspect(root, *hostile, deep)
    assert "JSON nested more than 64 deep: refused" in ran.stderr


def test_a_gzip_bomb(root: Path, hostile: tuple[RecordedApi, Path]) -> None:
    ran, _ = _inspect(root, *hostile, bomb)
    assert f"an answer larger than {MAX_API_RESPONSE_BYTES} bytes: refused" in ran.stderr


def test_a_slow_server_times_out(root: Path, hostile: tuple[RecordedApi, Path]) -> None:
    ran, elapsed = _inspect(root, *hostile, slow, "--timeout", "1")
    assert "no answer from the API server within 1 s" in ran.stderr
    assert elapsed < 4  # the server would answer after 6 s


def test_a_trickling_answer_stops_at_the_deadline(
    root: Path, hostile: tuple[RecordedApi, Path]
) -> None:
    ran, elapsed = _inspect(root, *hostile, trickle, "--timeout", "1", "--deadline", "2")
    assert "not done within --deadline 2 s" in ran.stderr
    assert elapsed < 5  # the answer would trickle for 60 s


def test_endless_continue_tokens(root: Path, hostile: tuple[RecordedApi, Path]) -> None:
    ran, _ = _inspect(root, *hostile, endless)
    assert f"more than {MAX_API_PAGES} pages, each with a `continue` token" in ran.stderr


def test_control_characters_of_a_server_are_shown_escaped(
    root: Path, hostile: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran, _ = _inspect(root, *hostile, escapes, monkeypatch=monkeypatch)
    assert (
        "the API server answered 500 InternalError: etcd\\x1b[2J\\x1b]0;pwned\\x07 "
        "timeout\\r\\nforged line (context 'aiacc-admin'" in ran.stderr
    )


def test_a_proxy_error_page(
    root: Path, hostile: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran, _ = _inspect(root, *hostile, html, monkeypatch=monkeypatch)
    assert "the API server answered 502 (text/html), not as the Kubernetes API does" in (ran.stderr)


def test_an_error_without_a_content_type(
    root: Path, hostile: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran, _ = _inspect(root, *hostile, no_content_type, monkeypatch=monkeypatch)
    assert "the API server answered 503 (application/octet-stream)" in ran.stderr


def test_an_unreachable_server(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = kubeconfig(tmp_path / "k.yaml", f"http://127.0.0.1:{port}")
    ran = run(root, "inspect", "aiacc", "--kubeconfig", str(config), monkeypatch=monkeypatch)
    assert ran.code == 2 and "Traceback" not in ran.stderr
    assert ran.stderr == (
        "error: reading the server's version (/version): cannot reach the API server (context "
        f"'aiacc-admin' (http://127.0.0.1:{port})): [Errno 111] Connection refused\n"
    )
    assert not (root / "facts").exists()


def test_control_characters_in_node_fields(
    root: Path, hostile: tuple[RecordedApi, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    api, config = hostile
    inspect = ("inspect", "aiacc", "--kubeconfig", str(config))
    shape = Shape(
        gpu_labels={"node.kubernetes.io/instance-type": "ecs\x1b]0;pwned\x07\x1b[2J"},
        gpu_node_info={"kubeletVersion": "v1.30.7\r\nforged: line", "osImage": "Linux\u202ex"},
    )
    record_cluster(api, shape)
    for output in ("text", "markdown", "json"):
        ran = run(root, *inspect, "--format", output, monkeypatch=monkeypatch)
        assert ran.code == 0, ran.stderr
        shown = ran.stdout + ran.stderr
        assert not [c for c in shown if c in "\x1b\x07\r\u202e"], output
        assert "\nforged" not in shown
    text = run(root, *inspect, monkeypatch=monkeypatch).stdout
    assert "4 x ecs\\x1b]0;pwned\\x07\\x1b[2J: 4 x Tesla-V100-SXM2-32GB" in text
    assert "kubelet v1.30.7\\r\\nforged: line," in text and "Linux\\u202ex;" in text
    written = (root / "facts" / "aiacc.json").read_bytes()
    assert written.isascii() and b'"instanceType": "ecs\\u001b]0;pwned\\u0007\\u001b[2J"' in written
