"""``KUBERNETES_EXEC_INFO``: the ExecCredential a plugin is given, as client-go writes it."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from trainstack.core.errors import ClusterError
from trainstack.live.exec_info import MAX_EXEC_INFO_BYTES, exec_info

V1 = "client.authentication.k8s.io/v1"
WHERE = "kubeconfig k: the exec credential plugin p"


def test_the_cluster_in_client_gos_order_with_the_ca_file_beside_the_kubeconfig(
    tmp_path: Path,
) -> None:
    (tmp_path / "ca.pem").write_bytes(b"-----BEGIN CERTIFICATE-----\nbaz\n")
    cluster = {
        "server": "https://10.0.0.1:6443",
        "certificate-authority": "ca.pem",  # relative: to the kubeconfig's folder
        "insecure-skip-tls-verify": False,
        "disable-compression": True,
        "proxy-url": "socks5://proxy:1080",
        "tls-server-name": "bar",
        "extensions": [{"name": "client.authentication.k8s.io/exec", "extension": {"a": 1}}],
    }
    text = exec_info(V1, cluster, tmp_path / "kubeconfig", WHERE)
    ca = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nbaz\n").decode()
    # The fields of pkg/apis/clientauthentication/v1/types.go in their order; the false
    # ones left out (omitempty), `interactive` always there.
    assert text == (
        '{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":'
        '{"cluster":{"server":"https://10.0.0.1:6443","tls-server-name":"bar",'
        f'"certificate-authority-data":"{ca}","proxy-url":"socks5://proxy:1080",'
        '"disable-compression":true,"config":{"a":1}},"interactive":false}}'
    )


def test_ca_data_overrides_the_ca_file(tmp_path: Path) -> None:
    cluster = {
        "server": "https://s",
        "certificate-authority": "/nonexistent/ca.pem",
        "certificate-authority-data": base64.b64encode(b"inline").decode(),
        "insecure-skip-tls-verify": True,
    }
    spec = json.loads(exec_info(V1, cluster, tmp_path / "k", WHERE))["spec"]
    assert spec["cluster"] == {
        "server": "https://s",
        "insecure-skip-tls-verify": True,
        "certificate-authority-data": base64.b64encode(b"inline").decode(),
    }


def test_v1alpha1_has_no_cluster_and_no_interactive(tmp_path: Path) -> None:
    version = "client.authentication.k8s.io/v1alpha1"
    text = exec_info(version, {"server": "https://s"}, tmp_path / "k", WHERE)
    assert json.loads(text) == {"kind": "ExecCredential", "apiVersion": version, "spec": {}}


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        (
            {"server": "https://s", "tls-server-name": ["a"]},
            "the cluster's `tls-server-name`, which is a list here; allowed: text",
        ),
        (
            {"server": "https://s", "disable-compression": "yes"},
            "the cluster's `disable-compression`, which is text here; allowed: true, false",
        ),
        (
            {"server": "https://s", "extensions": {"name": "x"}},
            "the cluster's `extensions`, which is a mapping here; allowed: a list of",
        ),
        (
            {"server": "https://s", "certificate-authority": "missing.pem"},
            "certificate-authority missing.pem cannot be read (FileNotFoundError)",
        ),
        (
            {"server": "https://s", "certificate-authority-data": "%%% SECRET"},
            "kubeconfig ",
        ),
    ],
)
def test_cluster_fields_of_the_wrong_kind(
    tmp_path: Path, cluster: dict[str, object], expected: str
) -> None:
    with pytest.raises(ClusterError, match="provideClusterInfo|not base64") as raised:
        exec_info(V1, cluster, tmp_path / "k", WHERE)
    assert expected in str(raised.value) and "SECRET" not in str(raised.value)


def test_a_ca_too_large_for_an_environment_variable(tmp_path: Path) -> None:
    (tmp_path / "ca.pem").write_bytes(b"x" * MAX_EXEC_INFO_BYTES)
    cluster = {"server": "https://s", "certificate-authority": "ca.pem"}
    # Read up to the bound, then refused before the plugin runs.
    with pytest.raises(ClusterError, match=r"KUBERNETES_EXEC_INFO would be \d+ bytes"):
        exec_info(V1, cluster, tmp_path / "k", WHERE)


@pytest.mark.parametrize("authority", ["fifo", "/dev/zero"])
def test_a_ca_that_is_no_regular_file_is_never_read(tmp_path: Path, authority: str) -> None:
    """A FIFO would block the open for ever, /dev/zero never end: both refused at once."""
    os.mkfifo(tmp_path / "fifo")
    cluster = {"server": "https://s", "certificate-authority": authority}
    with pytest.raises(ClusterError, match=r"certificate-authority .* cannot be read \(OSError\)"):
        exec_info(V1, cluster, tmp_path / "k", WHERE)
