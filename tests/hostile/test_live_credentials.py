"""A kubeconfig's credentials against hostile or broken set-ups: nothing leaks, nothing hangs.

Key material stays in memory (no file in ``$TMPDIR`` at any moment, after an error or a
signal either); a password in the server's URL is never shown; a kubeconfig lightkube
refuses is one clear error (``exec`` credential plugins: ``test_live_exec_plugin.py``).
Each case runs against a loopback server: a real process where the process matters (no key
file in its ``$TMPDIR``, which Python's ``tempfile`` reads once per process; signals; a
FIFO or a device that a regression would block on or read forever), else in this process
(:func:`tests.cli_helpers.run`), 1-2 s of CPU less each.
"""

from __future__ import annotations

import base64
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme

from tests.cli_helpers import Ran, run, run_process
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.stack_helpers import REPO

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@pytest.fixture()
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture()
def mutual_tls(ca: trustme.CA, api: RecordedApi) -> Iterator[str]:
    """The recorded cluster over TLS, asking every client for a certificate of ``ca``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    ca.configure_trust(context)
    context.verify_mode = ssl.CERT_REQUIRED
    yield from serve(api, context)


def _client_user(ca: trustme.CA) -> dict[str, str]:
    client = ca.issue_cert("aiacc-admin")
    return {
        "client-certificate-data": _b64(client.cert_chain_pems[0].bytes()),
        "client-key-data": _b64(client.private_key_pem.bytes()),
    }


def _cluster(ca: trustme.CA) -> dict[str, str]:
    return {"certificate-authority-data": _b64(ca.cert_pem.bytes())}


def _status(root: Path, config: Path, monkeypatch: pytest.MonkeyPatch) -> Ran:
    """``status aiacc --kubeconfig CONFIG`` in this process."""
    return run(root, "status", "aiacc", "--kubeconfig", str(config), monkeypatch=monkeypatch)


def _temp(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    temp = tmp_path / "tmpdir"
    temp.mkdir()
    return temp, {"TMPDIR": str(temp)}


def test_client_keys_are_used_from_memory_and_never_written(
    root: Path, tmp_path: Path, ca: trustme.CA, mutual_tls: str
) -> None:
    config = kubeconfig(tmp_path / "k", mutual_tls, user=_client_user(ca), cluster=_cluster(ca))
    temp, env = _temp(tmp_path)
    ran = run_process(root, "status", "aiacc", "--kubeconfig", str(config), env=env)
    # The server asked for the client's certificate and accepted it: the table came back.
    assert ran.code == 0, ran.stderr
    assert re.search(
        r"\nimagenet-tensorflow +1 +imagenet-tensorflow +MPIJob +Succeeded", ran.stdout
    )
    assert list(temp.iterdir()) == []


def test_a_tls_error_leaves_no_key_behind(root: Path, tmp_path: Path, ca: trustme.CA) -> None:
    api = RecordedApi()
    for url in serve(api):  # plain HTTP where the kubeconfig says https
        server = url.replace("http://", "https://")
        config = kubeconfig(tmp_path / "k", server, user=_client_user(ca), cluster=_cluster(ca))
        temp, env = _temp(tmp_path)
        ran = run_process(root, "status", "aiacc", "--kubeconfig", str(config), env=env)
        assert ran.code == 2, ran.stderr
        assert ran.stderr.startswith("error: listing ") and ran.stderr.count("\n") == 1
        assert "cannot reach the API server" in ran.stderr and "SSL" in ran.stderr
        assert list(temp.iterdir()) == []


def test_key_material_that_is_not_base64(
    root: Path, tmp_path: Path, ca: trustme.CA, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = {**_client_user(ca), "client-key-data": "not base64 \x1b[2J!"}
    config = kubeconfig(tmp_path / "k", "https://127.0.0.1:1", user=user)
    ran = _status(root, config, monkeypatch)
    assert (
        ran.code == 2
        and ran.stderr == f"error: kubeconfig {config}: `client-key-data` is not base64\n"
    )


def test_a_key_that_does_not_load_is_not_quoted(root: Path, tmp_path: Path, ca: trustme.CA) -> None:
    user = {**_client_user(ca), "client-key-data": _b64(b"-----BEGIN PRIVATE KEY-----\nSECRET\n")}
    config = kubeconfig(tmp_path / "k", "https://127.0.0.1:1", user=user)
    temp, env = _temp(tmp_path)
    ran = run_process(root, "status", "aiacc", "--kubeconfig", str(config), env=env)
    assert ran.code == 2 and "SECRET" not in ran.stderr
    assert list(temp.iterdir()) == []  # (lightkube's temporary key file outlived this error)
    assert ran.stderr == (
        f"error: kubeconfig {config}: the certificates of context 'aiacc-admin' "
        "(https://127.0.0.1:1) cannot be loaded (SSLError)\n"
    )


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_connecting_leaves_no_key_behind(
    root: Path, tmp_path: Path, ca: trustme.CA, stop: signal.Signals
) -> None:
    with socket.socket() as silent:  # accepts connections, never says a word (no handshake)
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        server = f"https://127.0.0.1:{silent.getsockname()[1]}"
        config = kubeconfig(tmp_path / "k", server, user=_client_user(ca), cluster=_cluster(ca))
        temp, env = _temp(tmp_path)
        process = subprocess.Popen(
            [sys.executable, "-m", "trainstack", "status", "aiacc", "--kubeconfig", str(config)],
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(REPO), **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        silent.settimeout(30)
        connection, _ = silent.accept()  # the client is connecting: keys are loaded by now
        with connection:
            process.send_signal(stop)
            _, stderr = process.communicate(timeout=10)
    assert process.returncode in (130, 128 + stop, 1), stderr
    assert "Traceback" not in stderr
    assert list(temp.iterdir()) == []


def test_a_password_in_the_server_url_is_never_shown(
    root: Path, tmp_path: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    for url in serve(api):
        server = url.replace("http://", "http://admin:SECRET-PASSWORD@")
        config = kubeconfig(tmp_path / "k", server)
        ran = _status(root, config, monkeypatch)
        assert ran.code == 0, ran.stderr
        assert ran.stdout.startswith("stack aiacc, context 'aiacc-admin' (http://***@127.0.0.1:")
        assert "SECRET" not in ran.stdout + ran.stderr
    refused = _status(root, config, monkeypatch)
    assert refused.code == 2 and "cannot reach the API server" in refused.stderr
    assert "SECRET" not in refused.stdout + refused.stderr and "http://***@127.0.0.1:" in (
        refused.stderr
    )


@pytest.mark.parametrize(
    ("user", "expected"),
    [
        ({"auth-provider": {"name": "gcp"}}, "`auth-provider` is not supported"),
        ({"tokenFile": "/nonexistent/token"}, "tokenFile /nonexistent/token cannot be read"),
    ],
)
def test_a_kubeconfig_the_client_refuses(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    user: dict[str, Any],
    expected: str,
) -> None:
    config = kubeconfig(tmp_path / "k", "http://127.0.0.1:1", user=user)
    ran = _status(root, config, monkeypatch)  # an internal error would raise here
    assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
    assert expected in ran.stderr and "internal error" not in ran.stderr


def test_a_kubeconfig_of_the_wrong_types(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "k"
    config.write_text(
        "contexts: [{name: c, context: {cluster: a, user: u}}]\ncurrent-context: c\n"
        "clusters: [{name: a, cluster: {server: [1, 2]}}]\nusers: [{name: u, user: {token: t}}]\n"
    )
    ran = _status(root, config, monkeypatch)
    assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
    assert ran.stderr.startswith(f"error: kubeconfig {config}: ")


@pytest.mark.parametrize(
    "server", ["http://user:SECRET@[::1", "not a url SECRET", "ftp://user:SECRET@127.0.0.1:1"]
)
def test_a_server_url_the_client_cannot_use(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: str
) -> None:
    config = kubeconfig(tmp_path / "k", server)
    ran = _status(root, config, monkeypatch)
    assert ran.code == 2 and "SECRET" not in ran.stderr
    assert ran.stderr == (
        f"error: kubeconfig {config}: the server of context 'aiacc-admin' is no http(s) URL "
        "the client can use (`clusters[].cluster.server`, e.g. https://10.0.0.1:6443)\n"
    )


@pytest.mark.parametrize(
    ("cluster", "user", "key"),
    [
        ({"certificate-authority": "fifo"}, {"token": "t"}, "certificate-authority fifo"),
        ({}, {"client-certificate": "/dev/zero", "client-key": "k.pem"}, "client-certificate"),
        ({}, {"client-certificate": "c.pem", "client-key": "fifo"}, "client-key fifo"),
        ({}, {"tokenFile": "/dev/zero"}, "tokenFile /dev/zero"),
        ({}, {"tokenFile": "fifo"}, "tokenFile fifo"),
    ],
)
def test_a_file_the_kubeconfig_names_is_read_only_if_regular(
    root: Path, tmp_path: Path, cluster: dict[str, str], user: dict[str, str], key: str
) -> None:
    """A FIFO would block the open (the TLS library opened a CA file before any check), and
    /dev/zero never ends: each is one error at once, naming the key and the file."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "c.pem").write_text("not used")
    (tmp_path / "k.pem").write_text("not used")
    config = kubeconfig(tmp_path / "k", "https://127.0.0.1:1", user=user, cluster=cluster)
    ran = run_process(root, "status", "aiacc", "--kubeconfig", str(config), "--deadline", "20")
    assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
    assert ran.stderr.startswith(f"error: kubeconfig {config}: {key}")
    assert "a regular file (not a device or pipe) of at most 1 MiB" in ran.stderr


def test_a_token_file_is_found_beside_the_kubeconfig(
    root: Path, tmp_path: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Relative to the kubeconfig, as client-go resolves ``tokenFile`` (loader.go,
    ``GetAuthInfoFileReferences``), not to the working directory."""
    (tmp_path / "token").write_text("from-beside-the-kubeconfig\n")
    (root / "token").write_text("FROM-THE-WORKING-DIRECTORY\n")
    for url in serve(api):
        config = kubeconfig(tmp_path / "k", url, user={"tokenFile": "token"})
        ran = _status(root, config, monkeypatch)  # in the project (chdir): not its token
        assert ran.code == 0, ran.stderr
        assert set(api.authorizations) == {"Bearer from-beside-the-kubeconfig"}
