"""A kubeconfig's ``exec`` credential plugin, run as kubectl runs it, against hostile set-ups.

Each plugin is a real shell script run by ``trainstack status`` against the recorded API
on loopback: as a process of its own where the process matters (a plugin that must be
stopped at a deadline or bound, what reaches the user's stderr, the environment a plugin
inherits), else in this process (:func:`tests.cli_helpers.run`), 1-2 s of CPU less each.
The script writes down what it was given (``KUBERNETES_EXEC_INFO``) or that it ran at
all, so that the test can tell what trainstack handed it, and whether a plugin that was
to be refused ran anyway. What client-go (kubectl) does, that these cases expect, is
cited in ``trainstack/live/exec_plugin.py`` and ``exec_info.py``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme

from tests.cli_helpers import Ran, run, run_process
from tests.live.apiserver import RecordedApi, kubeconfig, serve

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")

GROUP = "client.authentication.k8s.io"
SECRET_ANSWER = '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"SECRET-TOKEN"}}'


@pytest.fixture()
def tmp_path() -> Iterator[Path]:
    """A short directory of the test's own: messages quote a path whole only up to a
    length (``trainstack.console.safe_text``), and pytest's ``tmp_path`` grows with the
    test's name and, under xdist, the worker's."""
    path = Path(tempfile.mkdtemp(prefix="ts-exec-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _plugin(
    tmp_path: Path, body: str, api_version: str = "v1beta1", **settings: Any
) -> dict[str, Any]:
    """A user whose exec plugin is a shell script running ``body``; it records its pid,
    that it ran (``ran``) and the ``KUBERNETES_EXEC_INFO`` it saw (``seen.json``)."""
    script = tmp_path / "plugin.sh"
    script.write_text(
        f"#!/bin/sh\necho $$ > {tmp_path / 'plugin.pid'}\ntouch {tmp_path / 'ran'}\n"
        f"printf '%s' \"$KUBERNETES_EXEC_INFO\" > {tmp_path / 'seen.json'}\n{body}\n"
    )
    script.chmod(0o755)
    return {"exec": {"apiVersion": f"{GROUP}/{api_version}", "command": str(script), **settings}}


def _answer(token: str, api_version: str = "v1beta1") -> str:
    document = {"apiVersion": f"{GROUP}/{api_version}", "kind": "ExecCredential"}
    return "echo '" + json.dumps({**document, "status": {"token": token}}) + "'"


def _status(
    root: Path, config: Path, *more: str, monkeypatch: pytest.MonkeyPatch | None = None
) -> Ran:
    """``status aiacc``: in this process when given ``monkeypatch``, else a process."""
    command = ("status", "aiacc", "--kubeconfig", str(config), *more)
    if monkeypatch is None:
        return run_process(root, *command)
    return run(root, *command, monkeypatch=monkeypatch)


def test_an_exec_plugin_that_never_answers_is_stopped_at_the_deadline(
    root: Path, tmp_path: Path, api: RecordedApi
) -> None:
    for url in serve(api):
        config = kubeconfig(tmp_path / "k", url, user=_plugin(tmp_path, "sleep 600 & wait"))
        started = time.monotonic()
        ran = _status(root, config, "--deadline", "2")
        elapsed = time.monotonic() - started
        assert ran.code == 2, ran.stderr
        assert ran.stderr.startswith(
            f"error: kubeconfig {config}: the exec credential plugin {tmp_path / 'plugin.sh'} "
            "did not answer within what was left of --deadline ("
        )
        assert ran.stderr.endswith(" s): stopped\n") and ran.stderr.count("\n") == 1
        assert elapsed < 30  # --deadline 2, a process's start on a loaded machine; not 600
        assert api.seen == []  # no request without its credentials
    pid = int((tmp_path / "plugin.pid").read_text())
    with pytest.raises(ProcessLookupError, match="No such process"):
        os.kill(pid, 0)


@pytest.mark.parametrize(
    ("api_version", "settings", "spec"),
    [
        # client-go's exec_test.go (v0.36.3), case v1-basic-request: what the plugin is given.
        ("v1", {"interactiveMode": "IfAvailable"}, {"interactive": False}),
        ("v1", {"interactiveMode": "Never"}, {"interactive": False}),
        ("v1beta1", {}, {"interactive": False}),  # unset: IfAvailable (defaults.go)
        ("v1alpha1", {"interactiveMode": "IfAvailable"}, {}),  # no spec.interactive then
    ],
)
def test_an_exec_plugin_token_is_sent_and_the_plugin_told_what_kubectl_tells(
    root: Path,
    tmp_path: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    api_version: str,
    settings: dict[str, Any],
    spec: dict[str, Any],
) -> None:
    body = _answer("from-the-plugin", api_version)
    # One in a process of its own (the plugin runs in the environment a user's shell gave).
    here = None if api_version == "v1beta1" else monkeypatch
    for url in serve(api):
        user = _plugin(tmp_path, body, api_version, **settings)
        config = kubeconfig(tmp_path / "k", url, user=user, cluster={"tls-server-name": "x"})
        ran = _status(root, config, monkeypatch=here)
        assert ran.code == 0, ran.stderr
        assert set(api.authorizations) == {"Bearer from-the-plugin"}
    seen = json.loads((tmp_path / "seen.json").read_text())
    # No spec.cluster: the kubeconfig did not ask for it (provideClusterInfo).
    assert seen == {"kind": "ExecCredential", "apiVersion": f"{GROUP}/{api_version}", "spec": spec}


def test_provide_cluster_info_gives_the_plugin_the_server_and_the_ca(
    root: Path, tmp_path: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ca = trustme.CA().cert_pem.bytes()
    extensions = [
        {"name": "another", "extension": {"audience": "not-this-one"}},
        {"name": f"{GROUP}/exec", "extension": {"audience": "aiacc-cluster"}},
    ]
    cluster = {
        "certificate-authority-data": base64.b64encode(ca).decode("ascii"),
        "tls-server-name": "kubernetes.default",
        "proxy-url": "",
        "extensions": extensions,
    }
    settings = {"interactiveMode": "Never", "provideClusterInfo": True}
    for url in serve(api):
        user = _plugin(tmp_path, _answer("from-the-plugin", "v1"), "v1", **settings)
        config = kubeconfig(tmp_path / "k", url, user=user, cluster=cluster)
        ran = _status(root, config, monkeypatch=monkeypatch)
        assert ran.code == 0, ran.stderr
        assert set(api.authorizations) == {"Bearer from-the-plugin"}
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["spec"] == {
        "cluster": {
            "server": url,
            "tls-server-name": "kubernetes.default",
            "certificate-authority-data": base64.b64encode(ca).decode("ascii"),
            "config": {"audience": "aiacc-cluster"},
        },
        "interactive": False,
    }
    assert base64.b64decode(seen["spec"]["cluster"]["certificate-authority-data"]) == ca


@pytest.mark.parametrize(
    ("api_version", "settings", "expected"),
    [
        (
            "v1",
            {"interactiveMode": "Always"},
            " has interactiveMode Always: it must ask for input on a terminal, and trainstack "
            "runs plugins without one (standard input closed), so it was not run; log in with "
            "it in a terminal first (e.g. `kubectl get nodes` with this kubeconfig), then set "
            "`interactiveMode: IfAvailable` in this kubeconfig so that it answers from that "
            "login without asking",
        ),
        (
            "v1beta1",
            {"interactiveMode": "Sometimes\x1b[2J"},
            ": interactiveMode found 'Sometimes\\x1b[2J'; allowed: Never, IfAvailable, Always",
        ),
        (
            "v1",
            {},
            f": interactiveMode is missing, and apiVersion {GROUP}/v1 requires it (so does "
            "kubectl); allowed: Never, IfAvailable, Always; trainstack runs plugins without a "
            "terminal, so set Never or IfAvailable",
        ),
        (
            "v1",
            {"interactiveMode": "Never", "provideClusterInfo": "yes"},
            ": provideClusterInfo found 'yes'; allowed: true, false",
        ),
        (
            "v9",
            {"interactiveMode": "Never"},
            f": apiVersion found {GROUP}/v9; allowed: {GROUP}/v1, {GROUP}/v1beta1, "
            f"{GROUP}/v1alpha1",
        ),
    ],
)
def test_a_plugin_the_kubeconfig_configures_wrongly_is_never_run(
    root: Path,
    tmp_path: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    api_version: str,
    settings: dict[str, Any],
    expected: str,
) -> None:
    for url in serve(api):
        user = _plugin(tmp_path, _answer("from-the-plugin", api_version), api_version, **settings)
        config = kubeconfig(tmp_path / "k", url, user=user)
        ran = _status(root, config, monkeypatch=monkeypatch)
        assert ran.code == 2, ran.stderr
        plugin = tmp_path / "plugin.sh"
        assert ran.stderr == (
            f"error: kubeconfig {config}: the exec credential plugin {plugin}{expected}\n"
        )
        assert api.seen == []
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            SECRET_ANSWER % f"{GROUP}/v1beta1",
            f"answered with apiVersion {GROUP}/v1beta1 where the kubeconfig says {GROUP}/v1: "
            "refused, as kubectl does; set the kubeconfig's `exec.apiVersion` to the one the "
            "plugin answers with, or update the plugin",
        ),
        (
            '{"kind":"ExecCredential","status":{"token":"SECRET-TOKEN"}}',
            f"answered with apiVersion (none) where the kubeconfig says {GROUP}/v1: refused",
        ),
        (SECRET_ANSWER % "SECRET-TOKEN", "answered with apiVersion (not a group/version) where"),
    ],
)
def test_a_plugin_answering_another_api_version_is_refused_without_its_token(
    root: Path,
    tmp_path: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    expected: str,
) -> None:
    for url in serve(api):
        user = _plugin(tmp_path, f"echo '{answer}'", "v1", interactiveMode="IfAvailable")
        config = kubeconfig(tmp_path / "k", url, user=user)
        ran = _status(root, config, monkeypatch=monkeypatch)
        assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
        assert expected in ran.stderr and "SECRET" not in ran.stderr
        assert (tmp_path / "ran").exists() and api.seen == []


@pytest.mark.parametrize(
    ("body", "api_version", "expected"),
    [
        ("echo 'not json \x1b[2J SECRET'", "v1beta1", "printed no ExecCredential"),
        (
            f'echo \'{{"apiVersion":"{GROUP}/v1beta1","status":{{"token":5}}}}\'',
            "v1beta1",
            "printed no ExecCredential",
        ),
        (
            f'echo \'{{"apiVersion":"{GROUP}/v1beta1","kind":"Secret","status":'
            '{"token":"SECRET"}}\'',
            "v1beta1",
            "printed no ExecCredential",
        ),
        (
            f'echo \'{{"apiVersion":"{GROUP}/v1beta1","status":{{"clientCertificateData":'
            '"SECRET","clientKeyData":"SECRET"}}\'',
            "v1beta1",
            "answered with a client certificate: trainstack sends only a `status.token`",
        ),
        ("echo SECRET >&2; exit 3", "v1beta1", "failed (exit status 3)"),
    ],
)
def test_an_exec_plugin_that_answers_wrongly(
    root: Path,
    tmp_path: Path,
    api: RecordedApi,
    monkeypatch: pytest.MonkeyPatch,
    body: str,
    api_version: str,
    expected: str,
) -> None:
    # What a plugin prints on its stderr reaches the user only through the process's own
    # stderr (file descriptor 2, which this process's capture would not see).
    here = None if ">&2" in body else monkeypatch
    for url in serve(api):
        config = kubeconfig(tmp_path / "k", url, user=_plugin(tmp_path, body, api_version))
        ran = _status(root, config, monkeypatch=here)
        assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
        assert expected in ran.stderr and "SECRET" not in ran.stderr
        assert "\x1b" not in ran.stderr


@pytest.mark.parametrize("command", ["./get-token.sh", "bin/../get-token.sh"])
def test_a_relative_plugin_command_is_the_file_beside_the_kubeconfig(
    root: Path, tmp_path: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """client-go resolves it against the kubeconfig's directory (loader.go, v0.36.3,
    ``ResolveLocalPaths``): a script of the same name in the working directory (a pull
    request's checkout) must never run with the user's credentials."""
    beside = tmp_path / "kube"
    (beside / "bin").mkdir(parents=True)
    (root / "bin").mkdir(exist_ok=True)
    for directory, token in ((beside, "from-beside-the-kubeconfig"), (root, "HIJACKED")):
        script = directory / "get-token.sh"
        mark = f"touch {tmp_path / 'hijacked'}\n" if token == "HIJACKED" else ""
        script.write_text(f"#!/bin/sh\n{mark}{_answer(token)}\n")
        script.chmod(0o755)
    user = {"exec": {"apiVersion": f"{GROUP}/v1beta1", "command": command}}
    for url in serve(api):
        config = kubeconfig(beside / "config", url, user=user)
        ran = _status(root, config, monkeypatch=monkeypatch)  # run from the project: chdir
        assert ran.code == 0, ran.stderr
        assert set(api.authorizations) == {"Bearer from-beside-the-kubeconfig"}
    assert not (tmp_path / "hijacked").exists()


def test_an_exec_plugin_printing_without_end_is_stopped_at_its_bound(
    root: Path, tmp_path: Path, api: RecordedApi
) -> None:
    """Read as it arrives and stopped past 1 MiB: not held whole in memory until the
    deadline (``yes`` prints gigabytes a minute)."""
    for url in serve(api):
        config = kubeconfig(tmp_path / "k", url, user=_plugin(tmp_path, "exec yes SECRET"))
        started = time.monotonic()
        ran = _status(root, config, "--deadline", "60")
        assert ran.code == 2 and ran.stderr.count("\n") == 1, ran.stderr
        assert ran.stderr.endswith(" printed more than 1048576 bytes: refused\n")
        assert time.monotonic() - started < 30 and "SECRET" not in ran.stderr
        assert api.seen == []
    pid = int((tmp_path / "plugin.pid").read_text())
    with pytest.raises(ProcessLookupError, match="No such process"):
        os.kill(pid, 0)
