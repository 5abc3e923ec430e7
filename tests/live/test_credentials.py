"""The kubeconfig's credentials: a TLS context built from memory, requests authorised."""

from __future__ import annotations

import base64
import ssl
import tempfile
from pathlib import Path
from typing import Any

import httpx2
import pytest
import trustme
from lightkube import KubeConfig
from lightkube.config.models import User

from trainstack.core.errors import ClusterError
from trainstack.live.credentials import Authorizer, tls_context, without_credentials


def _config(ca: trustme.CA) -> Any:
    client = ca.issue_cert("admin")
    document = {
        "clusters": [
            {
                "name": "c",
                "cluster": {
                    "server": "https://127.0.0.1:6443",
                    "certificate-authority-data": base64.b64encode(ca.cert_pem.bytes()).decode(),
                },
            }
        ],
        "users": [
            {
                "name": "u",
                "user": {
                    "client-certificate-data": base64.b64encode(
                        client.cert_chain_pems[0].bytes()
                    ).decode(),
                    "client-key-data": base64.b64encode(client.private_key_pem.bytes()).decode(),
                },
            }
        ],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "x",
    }
    return KubeConfig.from_dict(document).get()


def test_keys_never_touch_a_temporary_file(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("key material written to a temporary file")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refuse)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    config = _config(trustme.CA())
    context = tls_context(config, Path("k"))
    assert context.cert_store_stats()["x509_ca"] == 1  # the CA, from memory
    stripped = without_credentials(config)
    assert stripped.user == User() and stripped.cluster.certificate_auth_data is None


def test_basic_and_token_authorisation() -> None:
    request = httpx2.Request("GET", "https://x/api")
    Authorizer(User(username="a", password="b"), Path("k"), lambda: 1.0).apply(request)
    assert request.headers["Authorization"] == "Basic " + base64.b64encode(b"a:b").decode()
    Authorizer(User(token="t"), Path("k"), lambda: 1.0).apply(request)
    assert request.headers["Authorization"] == "Bearer t"


def test_a_token_file_is_read_again_when_refreshed(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("one\n")
    authorizer = Authorizer(User(token_file=str(token)), Path("k"), lambda: 1.0)
    request = httpx2.Request("GET", "https://x/api")
    authorizer.apply(request)
    token.write_text("two\n")
    authorizer.apply(request)
    assert request.headers["Authorization"] == "Bearer one" and authorizer.refreshes
    authorizer.apply(request, fresh=True)
    assert request.headers["Authorization"] == "Bearer two"


def test_ca_data_that_is_not_base64() -> None:
    config = _config(trustme.CA())
    broken = config._replace(
        cluster=config.cluster.__class__(server="https://x", certificate_auth_data="%%%")
    )
    with pytest.raises(ClusterError, match="`certificate-authority-data` is not base64"):
        tls_context(broken, Path("k"))


def test_ca_data_wins_over_a_ca_file_as_in_client_go(tmp_path: Path) -> None:
    """Both set: the data is used (client-go's dataFromSliceOrFile), the file not read;
    a file naming another CA would otherwise make every request fail verification."""
    ca, other = trustme.CA(), trustme.CA()
    (tmp_path / "other.pem").write_bytes(other.cert_pem.bytes())
    config = _config(ca)
    config = config._replace(
        cluster=config.cluster.__class__(
            server=config.cluster.server,
            certificate_auth=str(tmp_path / "other.pem"),
            certificate_auth_data=config.cluster.certificate_auth_data,
        )
    )
    context = tls_context(config, Path("k"))
    loaded = {cert["serialNumber"] for cert in context.get_ca_certs()}
    assert len(loaded) == 1
    expected = ssl.create_default_context(cadata=ca.cert_pem.bytes().decode())
    assert loaded == {cert["serialNumber"] for cert in expected.get_ca_certs()}
