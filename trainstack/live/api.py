"""How trainstack reads the Kubernetes API: through lightkube, within bounds, one clear error.

lightkube (the project's client library) reads the kubeconfig, authenticates, lists with
label selectors and follows ``continue`` tokens. What it does not bound, trainstack does,
for every request of a command, in one place: :class:`~trainstack.live.transport.
GuardedTransport`, the HTTP transport lightkube's client sends through, and
:class:`ApiReader` around the client:

- time: ``--timeout`` to connect and for each part of an answer, ``--deadline`` for all
  the requests of the command together (each request's timeouts are cut to what is left;
  a followed log has none, and the pod checks that end it one each: :meth:`ApiReader.check`);
- size: an answer is read up to :data:`~trainstack.core.limits.MAX_API_RESPONSE_BYTES`,
  then refused; a JSON answer is decoded only after its nesting was checked on the bytes
  (:data:`~trainstack.core.limits.MAX_JSON_DEPTH`);
- pages: a list follows at most :data:`~trainstack.core.limits.MAX_API_PAGES` ``continue``
  tokens; a list whose token expired (410 Expired) is restarted once, as the API asks;
- errors: whatever goes wrong becomes one :class:`~trainstack.core.errors.ClusterError`
  naming what was read, the context and the server (credentials in its URL masked), with
  every string the server sent shown with its control characters escaped.

Credentials (:mod:`trainstack.live.credentials`): keys and certificates stay in memory,
an ``exec`` credential plugin runs as kubectl runs it (:mod:`trainstack.live.exec_plugin`),
within ``--deadline``; lightkube's client sees none.
"""

from __future__ import annotations

import contextlib
import ssl
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx2
import msgspec
from lightkube import ApiError, Client, ConfigError
from pydantic import ValidationError

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError, TrainstackError
from trainstack.core.json_depth import TOO_DEEP
from trainstack.live.credentials import Authorizer, tls_context, without_credentials
from trainstack.live.kubeconfig import Target
from trainstack.live.log_stream import Hangup, split_lines
from trainstack.live.transport import (
    ALONE,
    FOLLOW,
    STREAM,
    GuardedTransport,
    LimitExceeded,
    ReadLimits,
)

T = TypeVar("T")


class Malformed(ValueError):
    """A field of an answer that is not what the Kubernetes API sends there (the message
    names the object and the field)."""


class _Expired(Exception):
    """A list's ``continue`` token expired (410): the list starts again."""


class ApiReader:
    """Read-only, bounded access to the cluster one kubeconfig context reaches."""

    def __init__(self, target: Target, limits: ReadLimits) -> None:
        self.target = target
        self.limits = limits
        config = target.config()
        _check_server(config.cluster.server, target)
        try:
            assert config.user is not None  # Target.config() refuses a context without one
            verify = tls_context(config, target.path)
        except (ssl.SSLError, OSError, ValueError) as error:
            # Never the error's text: it could quote the certificate or key it failed on.
            raise ClusterError(
                f"kubeconfig {target.path}: the certificates of {target.where()} cannot be "
                f"loaded ({type(error).__name__})"
            ) from None
        self.transport = GuardedTransport(
            httpx2.HTTPTransport(verify=verify),
            limits,
            Authorizer(
                config.user,
                target.path,
                lambda: self.transport.remaining(),
                target.exec_settings(),
            ),
        )
        timeout = httpx2.Timeout(limits.timeout)
        try:
            self._client = Client(
                config=without_credentials(config),
                timeout=timeout,
                trust_env=False,
                transport=self.transport,
            )
        except ConfigError as error:
            raise ClusterError(f"kubeconfig {target.path}: {printable(str(error))}") from None
        self._http = httpx2.Client(
            base_url=config.cluster.server,
            timeout=timeout,
            transport=self.transport,
            trust_env=False,
        )

    @property
    def requests(self) -> int:
        """Requests sent to the API server so far."""
        return self.transport.requests

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return self.target.where()

    def version(self) -> dict[str, Any]:
        """``GET /version``: the server's version (``gitVersion``, ``platform``...)."""
        document = self._object("/version", "reading the server's version (/version)")
        assert document is not None  # a 404 is an error here
        return document

    def check(self, path: str, what: str) -> dict[str, Any] | None:
        """``GET path``'s object, ``None`` when the server says it does not exist (a 404
        Status), in a request of its own (:data:`~trainstack.live.transport.ALONE`: past
        the command's deadline too, for the pod checks of a followed log)."""
        return self._object(path, what, alone=True)

    def _object(self, path: str, what: str, alone: bool = False) -> dict[str, Any] | None:
        with self.errors(what, alone=alone):
            response = self._http.get(path, extensions={ALONE: alone})
            if response.is_error and response.headers["Content-Type"] == "application/json":
                if alone and response.status_code == 404:
                    return None
                raise ApiError(request=response.request, response=response)
            response.raise_for_status()
            document = msgspec.json.decode(response.content)
        if not isinstance(document, dict):
            raise ClusterError(f"{what}: the answer is no JSON object ({self.where()})")
        return document

    def list(
        self,
        resource: Any,
        what: str,
        keep: Callable[[dict[str, Any]], T],
        missing: TrainstackError | None = None,
        **options: Any,
    ) -> list[T]:
        """``keep(item)`` of every item of a list, page by page (``options``: lightkube's
        ``namespace``, ``labels``, ``fields``); restarted once if its token expires; a 404
        raises ``missing`` when given."""
        for attempt in (1, 2):
            kept: list[T] = []
            try:
                with self.errors(what, listing=True, missing=missing):
                    items = self._client.list(resource, chunk_size=self.limits.page_size, **options)
                    for item in items:
                        kept.append(keep(dict(item)))
                return kept
            except _Expired:
                if attempt == 2:
                    raise ClusterError(
                        f"{what}: the list expired twice while it was read (410 Expired: the "
                        f"server keeps a list's pages for a few minutes) ({self.where()}); "
                        "try again, or raise --timeout on a slow link"
                    ) from None
        raise AssertionError("unreachable")

    def get(self, resource: Any, name: str, what: str, **options: Any) -> dict[str, Any] | None:
        """One object (``options``: ``namespace``); ``None`` when it does not exist."""
        with self.errors(what):
            try:
                return dict(self._client.get(resource, name=name, **options))
            except ApiError as error:
                if error.status.code == 404:
                    return None
                raise

    def lines(
        self,
        path: str,
        params: dict[str, str],
        what: str,
        missing: TrainstackError,
        follow: bool,
        hangup: Hangup | None = None,
    ) -> Iterator[str]:
        """The text answer of ``GET path`` line by line (:func:`~trainstack.live.log_stream.
        split_lines`), read as it arrives: a log; a followed one ``hangup`` can end."""
        extensions = {FOLLOW if follow else STREAM: True}
        with self.errors(what, missing=missing):
            with self._http.stream("GET", path, params=params, extensions=extensions) as answer:
                if answer.is_error:
                    answer.read()
                    if answer.headers["Content-Type"] == "application/json":
                        raise ApiError(request=answer.request, response=answer)
                    answer.raise_for_status()
                if hangup is not None:
                    hangup.opened(answer.extensions)
                yield from split_lines(answer.iter_raw(), hangup)

    @contextlib.contextmanager
    def errors(
        self,
        action: str,
        listing: bool = False,
        missing: TrainstackError | None = None,
        alone: bool = False,
    ) -> Iterator[None]:
        """Turn whatever the client raises into one :class:`ClusterError` about ``action``
        (a 404 into ``missing`` when given; ``alone``: a request of its own deadline)."""
        where = self.where()
        try:
            yield
        except ApiError as error:
            if listing and error.status.code == 410:
                raise _Expired() from None
            if missing is not None and error.status.code == 404:
                raise missing from None
            raise ClusterError(f"{action}: {_refused(error)} ({where})") from None
        except LimitExceeded as error:
            raise ClusterError(f"{action}: {error} ({where})") from None
        except httpx2.TimeoutException:
            if not alone and self.transport.remaining() <= 0:
                raise ClusterError(
                    f"{action}: {self.transport.past_deadline()} ({where}); a slow or "
                    "trickling answer (--deadline)"
                ) from None
            raise ClusterError(
                f"{action}: no answer from the API server within {self.limits.timeout:g} s "
                f"({where}); is the cluster up and reachable from here? (--timeout)"
            ) from None
        except httpx2.HTTPStatusError as error:
            kind = printable(error.response.headers.get("Content-Type", "no content type"), 60)
            raise ClusterError(
                f"{action}: the API server answered {error.response.status_code} ({kind}), "
                f"not as the Kubernetes API does ({where})"
            ) from None
        except (httpx2.HTTPError, OSError) as error:
            reason = printable((str(error) or type(error).__name__).splitlines()[0])
            raise ClusterError(
                f"{action}: cannot reach the API server ({where}): {reason}"
            ) from None
        except ConfigError as error:
            # An exec credential plugin that failed: its command, never what it printed.
            reason = printable(str(error).split(":", 1)[0])
            raise ClusterError(f"{action}: kubeconfig {self.target.path}: {reason}") from None
        except RecursionError:
            raise ClusterError(f"{action}: {TOO_DEEP} ({where})") from None
        except Malformed as error:
            raise ClusterError(
                f"{action}: the API server's answer is not what the Kubernetes API sends "
                f"({where}): {error}"
            ) from None
        except ValidationError:
            raise  # trainstack's own model refused a value: a bug, never the server's fault
        except (msgspec.MsgspecError, ValueError, TypeError) as error:
            raise ClusterError(
                f"{action}: the API server's answer is not what the Kubernetes API sends "
                f"({where}): {printable(str(error), 120)}"
            ) from None


def _check_server(server: str, target: Target) -> None:
    """The context's server is an ``https://`` or ``http://`` URL; the error never quotes it
    (a malformed URL is not masked reliably)."""
    try:
        scheme = httpx2.URL(server).scheme if isinstance(server, str) else ""
    except httpx2.InvalidURL:
        scheme = ""
    if scheme not in ("https", "http"):
        raise ClusterError(
            f"kubeconfig {target.path}: the server of context "
            f"{printable(repr(target.context_name))} is no http(s) URL the client can use "
            "(`clusters[].cluster.server`, e.g. https://10.0.0.1:6443)"
        )


def _refused(error: ApiError) -> str:
    """``the API server answered 403 Forbidden: ...`` with what to do about the usual ones."""
    status = error.status
    code = status.code or error.response.status_code
    reason = printable(status.reason or "", 40)
    message = printable(status.message or "")
    text = f"the API server answered {code}{' ' + reason if reason else ''}: {message}"
    if code == 403:
        return f"{text}; the kubeconfig's user may not read this (RBAC: it needs get and list)"
    if code == 401:
        return f"{text}; the kubeconfig's credentials were not accepted (expired?)"
    return text
