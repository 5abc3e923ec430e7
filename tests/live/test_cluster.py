"""Reaching the cluster: kubeconfig and context choice, unreachable and silent API servers."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import run, run_process
from tests.live.apiserver import kubeconfig


@pytest.fixture()
def refused_url() -> str:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture()
def silent_url() -> Iterator[str]:
    """A loopback server that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for connection in accepted:
            connection.close()
        listener.close()


def test_connection_refused_is_one_clear_error(
    root: Path, tmp_path: Path, refused_url: str
) -> None:
    config = kubeconfig(tmp_path / "k.yaml", refused_url)
    started = time.monotonic()
    ran = run_process(root, "status", "aiacc", "--kubeconfig", str(config))
    assert time.monotonic() - started < 20
    assert ran.code == 2 and "Traceback" not in ran.stderr
    # Groups are read in (namespace, framework) order: nlp's PyTorchJobs first.
    assert ran.stderr == (
        "error: listing pytorchjobs in namespace nlp: cannot reach the API server "
        f"(context 'aiacc-admin' ({refused_url})): [Errno 111] Connection refused\n"
    )
    assert ran.stderr.count("\n") == 1


def test_a_silent_server_times_out(root: Path, tmp_path: Path, silent_url: str) -> None:
    config = kubeconfig(tmp_path / "k.yaml", silent_url)
    started = time.monotonic()
    ran = run_process(
        root, "results", "collect", "aiacc", "--kubeconfig", str(config), "--timeout", "1"
    )
    assert time.monotonic() - started < 20
    assert ran.code == 2 and "Traceback" not in ran.stderr
    assert "no answer from the API server within 1 s" in ran.stderr
    assert not (root / "results").exists()


def test_existing_cluster_uses_the_default_kubeconfig_and_the_stacks_context(
    root: Path, tmp_path: Path, refused_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = kubeconfig(tmp_path / "k.yaml", refused_url, context="other")
    monkeypatch.setenv("KUBECONFIG", str(config))
    ran = run(root, "status", "onprem", monkeypatch=monkeypatch)
    assert ran.code == 2
    # stacks/Pulumi.onprem.yaml names context onprem-gpu; the file has only `other`.
    assert ran.stderr == (
        f"error: kubeconfig {config}: Context 'onprem-gpu' not found (contexts: other)\n"
    )
    ran = run(root, "status", "onprem", "--context", "other", monkeypatch=monkeypatch)
    assert "cannot reach the API server (context 'other'" in ran.stderr


def test_kubeconfig_contents_are_never_shown(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "k.yaml"
    secret.write_text("clusters:\n- name: a\n  token: s3cr3t-t0ken: [unclosed\n")
    ran = run(root, "status", "aiacc", "--kubeconfig", str(secret), monkeypatch=monkeypatch)
    assert ran.code == 2
    assert ran.stderr == f"error: kubeconfig {secret} is not valid YAML (line 3)\n"
    secret.write_text(json.dumps({"token": "s3cr3t-t0ken"}))
    ran = run(root, "status", "aiacc", "--kubeconfig", str(secret), monkeypatch=monkeypatch)
    assert "s3cr3t" not in ran.stderr and "has no `contexts` list" in ran.stderr
    ran = run(
        root,
        "status",
        "aiacc",
        "--kubeconfig",
        str(tmp_path / "none.yaml"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 2 and "cannot read kubeconfig" in ran.stderr and "No such file" in ran.stderr


def test_a_stack_with_the_kubeconfig_secret(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = root / "stacks" / "Pulumi.onprem.yaml"
    path.write_text(
        path.read_text().replace(
            "config:\n", "config:\n  trainstack:kubeconfig:\n    secure: v1:AAAA\n", 1
        )
    )
    ran = run(root, "status", "onprem", monkeypatch=monkeypatch)
    assert ran.code == 2
    assert (
        "reaches its cluster through the secret trainstack:kubeconfig, which trainstack does "
        "not decrypt" in ran.stderr
    )
    assert (
        "pulumi config get --show-secrets trainstack:kubeconfig -s onprem > onprem.kubeconfig"
        in ran.stderr
    )
    assert "v1:AAAA" not in ran.stderr
