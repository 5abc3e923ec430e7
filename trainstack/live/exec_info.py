"""``KUBERNETES_EXEC_INFO``: what an exec credential plugin is told, as client-go tells it.

client-go (``plugin/pkg/client/auth/exec/exec.go`` at tag v0.36.3, ``refreshCredsLocked``)
gives every plugin this variable: an ExecCredential of the configured apiVersion whose
``spec`` holds ``interactive`` and, when the kubeconfig's exec has ``provideClusterInfo:
true``, ``cluster`` (``rest/exec.go``, ``ConfigToExecCluster``): the context's server,
``tls-server-name``, ``insecure-skip-tls-verify``, the CA's PEM bytes (base64 in JSON; from
``certificate-authority-data``, which overrides ``certificate-authority``, a file relative
to the kubeconfig: ``tools/clientcmd/loader.go``, ``ResolveLocalPaths``), ``proxy-url``,
``disable-compression``, and as ``config`` the cluster's extension named
``client.authentication.k8s.io/exec`` (``tools/clientcmd/client_config.go``,
``clusterExtensionKey``). Fields and their JSON names: ``pkg/apis/clientauthentication/v1/
types.go`` and https://kubernetes.io/docs/reference/config-api/client-authentication.v1/;
plugins built on client-go read it with ``LoadExecCredentialFromEnv``
(``tools/auth/exec/exec.go``) and fail without it.

Keys come in client-go's order (its structs' fields), so the text is the same each run.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

import msgspec

from trainstack.core.errors import ClusterError
from trainstack.live.kubeconfig_files import read_named_file

EXEC_INFO_VARIABLE = "KUBERNETES_EXEC_INFO"
"""exec.go's ``execInfoEnv`` (client-go v0.36.3)."""
V1ALPHA1 = "client.authentication.k8s.io/v1alpha1"
CLUSTER_EXTENSION = "client.authentication.k8s.io/exec"
"""The cluster extension passed as ``spec.cluster.config`` (client_config.go, v0.36.3)."""
MAX_EXEC_INFO_BYTES = 32 * 4096
"""Linux's bound on one ``NAME=value`` environment string, its NUL included: MAX_ARG_STRLEN,
``PAGE_SIZE * 32`` (include/uapi/linux/binfmts.h), with 4 KiB pages."""
_KINDS = {bool: "true or false", dict: "a mapping", list: "a list", str: "text"}


def exec_info(api_version: str, cluster: dict[str, Any] | None, source: Path, where: str) -> str:
    """The variable's value for a plugin of ``api_version``; ``cluster``: the context's
    cluster mapping when the plugin asked for it (``provideClusterInfo``)."""
    spec: dict[str, Any] = {}
    # v1alpha1 had neither spec.cluster nor a spec.interactive written when false
    # (pkg/apis/clientauthentication/v1alpha1/types.go at v0.23.17, its last release).
    if api_version != V1ALPHA1:
        if cluster is not None:
            spec["cluster"] = _cluster_info(cluster, source, where)
        spec["interactive"] = False
    credential = {"kind": "ExecCredential", "apiVersion": api_version, "spec": spec}
    try:
        text = msgspec.json.encode(credential).decode("utf-8")
    except (msgspec.EncodeError, TypeError, ValueError):
        raise ClusterError(
            f"{where}: the cluster's extension {CLUSTER_EXTENSION} cannot be passed as JSON "
            "(provideClusterInfo)"
        ) from None
    size = len(EXEC_INFO_VARIABLE) + 1 + len(text.encode("utf-8")) + 1
    if size > MAX_EXEC_INFO_BYTES:
        raise ClusterError(
            f"{where}: {EXEC_INFO_VARIABLE} would be {size} bytes with the cluster's "
            f"information (provideClusterInfo), more than one environment variable may hold "
            f"on Linux ({MAX_EXEC_INFO_BYTES}); the CA bundle or the cluster's extension "
            "is too large: set provideClusterInfo: false if the plugin can do without"
        )
    return text


def _cluster_info(cluster: dict[str, Any], source: Path, where: str) -> dict[str, Any]:
    """``spec.cluster``: the fields client-go writes, empty ones left out (``omitempty``),
    ``server`` always."""
    info: dict[str, Any] = {"server": _text(cluster, "server", where)}
    if server_name := _text(cluster, "tls-server-name", where):
        info["tls-server-name"] = server_name
    if _flag(cluster, "insecure-skip-tls-verify", where):
        info["insecure-skip-tls-verify"] = True
    if authority := _authority(cluster, source, where):
        info["certificate-authority-data"] = base64.b64encode(authority).decode("ascii")
    if proxy := _text(cluster, "proxy-url", where):
        info["proxy-url"] = proxy
    if _flag(cluster, "disable-compression", where):
        info["disable-compression"] = True
    extension = _extension(cluster, where)
    if extension is not None:
        info["config"] = extension
    return info


def _text(cluster: dict[str, Any], key: str, where: str) -> str:
    value = cluster.get(key)
    if value is None or isinstance(value, str):
        return value or ""
    raise ClusterError(
        f"{where}: provideClusterInfo passes the cluster's `{key}`, which is "
        f"{_kind(value)} here; allowed: text"
    )


def _flag(cluster: dict[str, Any], key: str, where: str) -> bool:
    value = cluster.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise ClusterError(
        f"{where}: provideClusterInfo passes the cluster's `{key}`, which is "
        f"{_kind(value)} here; allowed: true, false"
    )


def _kind(value: object) -> str:
    return _KINDS.get(type(value), "a number" if isinstance(value, (int, float)) else "a date")


def _authority(cluster: dict[str, Any], source: Path, where: str) -> bytes:
    """The CA's PEM bytes: ``certificate-authority-data`` first, else the file."""
    data = _text(cluster, "certificate-authority-data", where)
    if data:
        try:
            return base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise ClusterError(
                f"kubeconfig {source}: `certificate-authority-data` is not base64"
            ) from None
    name = _text(cluster, "certificate-authority", where)
    if not name:
        return b""
    context = f"{where}: provideClusterInfo passes the CA, and"
    return read_named_file(name, source, "certificate-authority", context)


def _extension(cluster: dict[str, Any], where: str) -> object:
    """The ``extension`` of the cluster's extension named :data:`CLUSTER_EXTENSION`."""
    extensions = cluster.get("extensions") or []
    if not isinstance(extensions, list):
        raise ClusterError(
            f"{where}: provideClusterInfo passes the cluster's `extensions`, which is "
            f"{_kind(extensions)} here; allowed: a list of {{name, extension}}"
        )
    found = None
    for entry in extensions:
        if isinstance(entry, dict) and entry.get("name") == CLUSTER_EXTENSION:
            found = entry.get("extension")
    return found
