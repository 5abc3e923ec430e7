"""A kubeconfig's ``exec`` credential plugin, run as kubectl runs it, within ``--deadline``.

What kubectl does is client-go's ``plugin/pkg/client/auth/exec/exec.go`` (tag v0.36.3,
commit 44a8af2fee834a8fc3523360e029cf7ea7104622) and the ExecCredential reference,
https://kubernetes.io/docs/reference/config-api/client-authentication.v1/. For a tool that
never has a terminal to lend, that is:

- the plugin's ``apiVersion``: ``client.authentication.k8s.io/v1`` or ``v1beta1`` (exec.go,
  ``apiVersions``); ``v1alpha1`` too, which lightkube accepted and client-go no longer does
  (gone from exec.go at v0.24.0);
- ``interactiveMode`` (``tools/clientcmd/api/v1/types.go``, ``ExecConfig``): required with
  v1 (``tools/clientcmd/validation.go``, ``validateAuthInfo``: "interactiveMode must be
  specified"), ``IfAvailable`` when unset with v1beta1 and v1alpha1
  (``tools/clientcmd/api/v1/defaults.go``). The plugin's standard input is never a
  terminal here (it is closed), so ``Never`` and ``IfAvailable`` run it with
  ``interactive: false``, and ``Always`` is refused without running it, as client-go
  refuses it without a terminal (exec.go, ``isInteractive``);
- a relative ``command`` holding a separator (``./get-token.sh``) is the file next to the
  kubeconfig, a bare name is looked up on ``$PATH`` (:mod:`trainstack.live.kubeconfig_files`);
- ``KUBERNETES_EXEC_INFO``: an ExecCredential holding ``spec.interactive`` and, with
  ``provideClusterInfo: true``, ``spec.cluster`` (:mod:`trainstack.live.exec_info`);
- its answer: an ExecCredential of the configured apiVersion (exec.go refuses another one,
  and one without an apiVersion: ``exec_test.go``, case beta-no-group-version) whose
  ``status.token`` trainstack sends. A client certificate in ``status`` is not used.

trainstack's own bounds: the plugin runs in its own session, killed with what it started at
what is left of ``--deadline`` or as soon as it has printed more than
:data:`MAX_EXEC_OUTPUT` bytes (counted as they arrive); its output is never printed (its
standard error is discarded: it may hold the token); what the kubeconfig holds is shown
through :func:`printable`.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import msgspec
from lightkube.config.models import UserExec

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.live.exec_info import EXEC_INFO_VARIABLE, V1ALPHA1, exec_info
from trainstack.live.kubeconfig_files import plugin_command

V1 = "client.authentication.k8s.io/v1"
V1BETA1 = "client.authentication.k8s.io/v1beta1"
EXEC_API_VERSIONS = (V1, V1BETA1, V1ALPHA1)
"""client-go's (v1, v1beta1: exec.go at v0.36.3) and lightkube 1.0.1's (v1alpha1)."""
INTERACTIVE_MODES = ("Never", "IfAvailable", "Always")
"""``ExecInteractiveMode`` values (tools/clientcmd/api/v1/types.go at v0.36.3)."""
MAX_EXEC_OUTPUT = 1 << 20
"""Bytes an exec credential plugin may print (an ExecCredential is a few KiB)."""
_GROUP_VERSION = re.compile(r"[a-z0-9.-]{1,100}/[a-z0-9]{1,20}")


def run_plugin(
    plugin: UserExec,
    settings: dict[str, Any],
    cluster: dict[str, Any],
    source: Path,
    limit: float,
) -> str:
    """The token ``plugin`` answers within ``limit`` seconds. ``settings``: the kubeconfig's
    ``exec`` mapping as written (what lightkube's ``UserExec`` drops); ``cluster``: the
    context's cluster mapping, for ``provideClusterInfo``."""
    where = f"kubeconfig {source}: the exec credential plugin {printable(plugin.command, 80)}"
    if plugin.apiVersion not in EXEC_API_VERSIONS:
        raise ClusterError(
            f"{where}: apiVersion found {printable(plugin.apiVersion, 80)}; allowed: "
            f"{', '.join(EXEC_API_VERSIONS)}"
        )
    _check_interactive_mode(settings.get("interactiveMode"), plugin.apiVersion, where)
    provide = settings.get("provideClusterInfo")
    if provide is not None and not isinstance(provide, bool):
        raise ClusterError(
            f"{where}: provideClusterInfo found {_quoted(provide)}; allowed: true, false"
        )
    env = dict(os.environ)
    env.update((variable.name, variable.value) for variable in plugin.env or [])
    # After the kubeconfig's own variables, as exec.go appends it (refreshCredsLocked).
    env[EXEC_INFO_VARIABLE] = exec_info(
        plugin.apiVersion, cluster if provide else None, source, where
    )
    # Against the kubeconfig's directory, not the working one, as kubectl resolves it.
    command = plugin_command(plugin.command, source)
    output = _output([command, *(plugin.args or [])], env, where, max(limit, 0.1))
    return _token(output, plugin.apiVersion, where)


def _check_interactive_mode(mode: object, api_version: str, where: str) -> None:
    """Refuses what client-go refuses, and ``Always``: the plugin would need a terminal."""
    allowed = ", ".join(INTERACTIVE_MODES)
    if mode is None or mode == "":
        if api_version != V1:
            return  # IfAvailable (tools/clientcmd/api/v1/defaults.go, SetDefaults_ExecConfig)
        raise ClusterError(
            f"{where}: interactiveMode is missing, and apiVersion {V1} requires it (so does "
            f"kubectl); allowed: {allowed}; trainstack runs plugins without a terminal, so "
            "set Never or IfAvailable"
        )
    if mode not in INTERACTIVE_MODES:
        raise ClusterError(f"{where}: interactiveMode found {_quoted(mode)}; allowed: {allowed}")
    if mode == "Always":
        raise ClusterError(
            f"{where} has interactiveMode Always: it must ask for input on a terminal, and "
            "trainstack runs plugins without one (standard input closed), so it was not run; "
            "log in with it in a terminal first (e.g. `kubectl get nodes` with this "
            "kubeconfig), then set `interactiveMode: IfAvailable` in this kubeconfig so that "
            "it answers from that login without asking"
        )


def _output(command: list[str], env: dict[str, str], where: str, limit: float) -> bytes:
    """What ``command`` prints on standard output, within ``limit`` seconds."""
    try:
        process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        raise ClusterError(f"{where} cannot be run ({type(error).__name__})") from None
    try:
        output = _bounded(process, where, time.monotonic() + limit, limit)
    except BaseException:
        _kill(process)
        raise
    if process.returncode != 0:
        raise ClusterError(f"{where} failed (exit status {process.returncode})")
    return output


def _bounded(process: subprocess.Popen[bytes], where: str, end: float, limit: float) -> bytes:
    """The plugin's standard output up to its end, refused past :data:`MAX_EXEC_OUTPUT`
    bytes or ``end`` (``communicate`` would hold whatever it prints, without end, in
    memory); the plugin has then exited."""
    assert process.stdout is not None
    descriptor = process.stdout.fileno()
    os.set_blocking(descriptor, False)
    chunks: list[bytes] = []
    size = 0
    with selectors.DefaultSelector() as selector:
        selector.register(descriptor, selectors.EVENT_READ)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise ClusterError(
                    f"{where} did not answer within what was left of --deadline ({limit:.1f} "
                    "s): stopped"
                )
            if not selector.select(left):
                continue
            chunk = os.read(descriptor, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_EXEC_OUTPUT:
                raise ClusterError(f"{where} printed more than {MAX_EXEC_OUTPUT} bytes: refused")
            chunks.append(chunk)
    process.stdout.close()
    try:
        process.wait(max(end - time.monotonic(), 0.01))
    except subprocess.TimeoutExpired:
        raise ClusterError(
            f"{where} did not answer within what was left of --deadline ({limit:.1f} s): stopped"
        ) from None
    return b"".join(chunks)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """The plugin and whatever it started (its own session), then reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.kill()
    process.wait()


def _token(output: bytes, api_version: str, where: str) -> str:
    """The ``status.token`` of the plugin's ExecCredential (never its text in a message)."""
    try:
        document = msgspec.json.decode(output)
    except (msgspec.DecodeError, RecursionError):
        document = None
    if not isinstance(document, dict):
        raise ClusterError(
            f"{where} printed no ExecCredential with a `status.token` (a JSON object)"
        )
    answered = document.get("apiVersion")
    if answered != api_version:
        raise ClusterError(
            f"{where} answered with apiVersion {_shown(answered)} where the kubeconfig says "
            f"{api_version}: refused, as kubectl does; set the kubeconfig's `exec.apiVersion` "
            "to the one the plugin answers with, or update the plugin"
        )
    kind = document.get("kind", "ExecCredential")
    status = document.get("status")
    token = status.get("token") if isinstance(status, dict) else None
    if kind != "ExecCredential" or not isinstance(token, str) or not token:
        if isinstance(status, dict) and status.get("clientCertificateData"):
            raise ClusterError(
                f"{where} answered with a client certificate: trainstack sends only a "
                "`status.token`"
            )
        raise ClusterError(
            f"{where} printed no ExecCredential with a `status.token` (a JSON object)"
        )
    if not token.isprintable():
        raise ClusterError(f"{where} answered a `status.token` with control characters")
    return token


def _shown(api_version: object) -> str:
    """The apiVersion a plugin answered, when it is shaped like one (else never its text:
    it is the plugin's output)."""
    if api_version is None:
        return "(none)"
    if isinstance(api_version, str) and _GROUP_VERSION.fullmatch(api_version):
        return api_version
    return "(not a group/version)"


def _quoted(value: object) -> str:
    """A value from the kubeconfig, quoted when it is text, control characters escaped."""
    return f"'{printable(value, 80)}'" if isinstance(value, str) else printable(repr(value), 80)
