"""A kubeconfig's credentials, used without ever writing key material to disk.

lightkube would decode inline ``certificate-authority-data``, ``client-certificate-data``
and ``client-key-data`` into temporary files (``FileStr``: ``NamedTemporaryFile`` in
``$TMPDIR``, removed when garbage-collected; lightkube 1.0.1 ``config/models.py``, the
installed wheel), and would run an ``exec`` credential plugin without a time limit
(``sync_check_output``: ``Popen.communicate()``, ``config/client_adapter.py``). Here
instead:

- the CA is handed to :mod:`ssl` as text in memory (``cadata``);
- a client certificate and key are handed to ``load_cert_chain``, which only reads
  paths, through anonymous memory files (``memfd_create``: no name in any directory,
  gone when closed); where the system has none, through a file in a private temporary
  directory that is removed before the function returns, with SIGINT, SIGTERM and SIGHUP
  held meanwhile (only SIGKILL in that instant leaves it behind);
- every request is authorised by :class:`Authorizer` (token, token file, basic or an
  ``exec`` plugin run as kubectl runs it, bounded by the command's ``--deadline``:
  :mod:`trainstack.live.exec_plugin`) in the bounded transport, so lightkube's own client
  is given the context without any credential (:func:`without_credentials`).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import ssl
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
from lightkube.config.kubeconfig import SingleConfig
from lightkube.config.models import Cluster, User

from trainstack.console.held_signals import deferred
from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.live.exec_plugin import run_plugin
from trainstack.live.kubeconfig_files import read_named_file


def tls_context(config: SingleConfig, source: Path) -> ssl.SSLContext:
    """The TLS context for ``config``'s server, every key and certificate kept in memory."""
    cluster, user = config.cluster, config.user or User()
    # certificate-authority-data overrides the file when both are set, as in client-go
    # (transport/transport.go at v0.36.3, dataFromSliceOrFile: the data when there is any).
    if cluster.certificate_auth_data:
        pem = _decoded(cluster.certificate_auth_data, "certificate-authority-data", source)
        context = _trusting(pem)
    elif cluster.certificate_auth:
        pem = read_named_file(cluster.certificate_auth, source, "certificate-authority")
        context = _trusting(pem)
    else:
        context = httpx2.create_ssl_context(verify=not cluster.insecure, trust_env=False)
    if cluster.insecure:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if user.client_cert_data or user.client_cert:
        certificate = (
            _decoded(user.client_cert_data, "client-certificate-data", source)
            if user.client_cert_data
            else read_named_file(user.client_cert or "", source, "client-certificate")
        )
        key = (
            _decoded(user.client_key_data, "client-key-data", source)
            if user.client_key_data
            else read_named_file(user.client_key or "", source, "client-key")
        )
        with _memory_file(certificate) as cert_path, _memory_file(key) as key_path:
            context.load_cert_chain(cert_path, key_path)
    return context


def _trusting(pem: bytes) -> ssl.SSLContext:
    """A context trusting the CA certificates of ``pem`` (read by then: ``cafile`` would
    have the TLS library open a path, a FIFO included, before any check)."""
    return ssl.create_default_context(cadata=pem.decode("ascii", errors="replace"))


def _decoded(data: str, key: str, source: Path) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ClusterError(f"kubeconfig {source}: `{key}` is not base64") from None


@contextlib.contextmanager
def _memory_file(data: bytes) -> Iterator[str]:
    """A path that reads ``data``: an anonymous memory file, else a private file removed
    on the way out (signals held until it is)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("trainstack-credential", os.MFD_CLOEXEC)
        try:
            os.write(fd, data)
            yield f"/proc/self/fd/{fd}"
        finally:
            os.close(fd)
        return
    with deferred(), tempfile.TemporaryDirectory(prefix="trainstack-") as private:
        path = Path(private, "credential")
        path.touch(mode=0o600)
        path.write_bytes(data)
        yield str(path)


def without_credentials(config: SingleConfig) -> SingleConfig:
    """``config`` with its user and certificates emptied: what lightkube's client is given
    (the transport adds the credentials; lightkube then writes no temporary file)."""
    cluster = Cluster(server=config.cluster.server)
    return config._replace(cluster=cluster, user=User())


class Authorizer:
    """Sets the ``Authorization`` header of a request as the kubeconfig's user would.

    ``exec_settings``: the user's ``exec`` mapping and its cluster's mapping as the file
    writes them (:meth:`~trainstack.live.kubeconfig.Target.exec_settings`), for what
    lightkube's ``UserExec`` drops.
    """

    def __init__(
        self,
        user: User,
        source: Path,
        remaining: Callable[[], float],
        exec_settings: tuple[dict[str, Any], dict[str, Any]] | None = None,
    ) -> None:
        self.user = user
        self.source = source
        self.remaining = remaining
        self.exec_settings = exec_settings or ({}, {})
        self._header: str | None = None

    @property
    def refreshes(self) -> bool:
        """Whether a 401 is worth one retry with fresh credentials (file or plugin)."""
        return self.user.token_file is not None or self.user.exec is not None

    def apply(self, request: httpx2.Request, fresh: bool = False) -> None:
        if fresh or self._header is None:
            self._header = self._make()
        if self._header:
            request.headers["Authorization"] = self._header

    def _make(self) -> str:
        user = self.user
        if user.token_file is not None:
            data = read_named_file(user.token_file, self.source, "tokenFile")
            try:
                return "Bearer " + data.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise ClusterError(
                    f"kubeconfig {self.source}: tokenFile {printable(user.token_file)} is not "
                    "UTF-8 text"
                ) from None
        if user.token is not None:
            return f"Bearer {user.token}"
        if user.exec is not None:
            settings, cluster = self.exec_settings
            token = run_plugin(user.exec, settings, cluster, self.source, self.remaining())
            return f"Bearer {token}"
        if user.username and user.password:
            pair = f"{user.username}:{user.password}".encode()
            return "Basic " + base64.b64encode(pair).decode("ascii")
        if user.auth_provider:
            raise ClusterError(
                f"kubeconfig {self.source}: `auth-provider` is not supported (lightkube has "
                "none); use a token or an exec credential plugin"
            )
        return ""
