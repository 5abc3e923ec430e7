"""The bounded HTTP transport under lightkube's client: time, size, nesting and pages.

Every request of a command goes through one :class:`GuardedTransport` (what
:class:`~trainstack.live.api.ApiReader` gives lightkube's client), which

- cuts each request's connect and read timeouts to what is left of the command's
  deadline, and refuses to start a request past it;
- asks for gzip only and decompresses within the size limit, counting the bytes of the
  answer as they arrive and refusing it past
  :data:`~trainstack.core.limits.MAX_API_RESPONSE_BYTES` (or past the deadline, however
  slowly it trickles);
- checks a JSON answer's nesting on its bytes before lightkube decodes it
  (:data:`~trainstack.core.limits.MAX_JSON_DEPTH`);
- counts the pages of each list: a request with a ``continue`` token is one more page of
  the list at that path, refused past :data:`~trainstack.core.limits.MAX_API_PAGES`;
- authorises each request as the kubeconfig's user (:class:`~trainstack.live.credentials.
  Authorizer`), once more with fresh credentials after a 401 when they can be refreshed;
- leaves a followed log (a request marked :data:`FOLLOW`) to run as long as the pod
  writes: its connection and headers within ``--timeout``, then no deadline, no size
  limit and no read timeout (the caller reads it line by line, each line bounded; Ctrl-C
  or the pod's end stops it);
- bounds a request of its own (marked :data:`ALONE`: the pod checks of a followed log,
  which outlives the command's deadline) like a command of one request: ``--timeout``
  as always, ``--deadline`` counted from its start, not the command's (an ``exec``
  credential plugin it runs too).

What it refuses is a :class:`LimitExceeded`, which the reader turns into one clear error.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2

from trainstack.console.safe_text import printable
from trainstack.core.json_depth import TOO_DEEP, raw_too_deep
from trainstack.core.limits import API_PAGE_SIZE, MAX_API_PAGES, MAX_API_RESPONSE_BYTES
from trainstack.live.credentials import Authorizer
from trainstack.live.options import DEFAULT_DEADLINE, DEFAULT_TIMEOUT

PIECE = 1 << 20
"""Bytes decompressed at a time."""
FOLLOW = "trainstack.follow"
"""A request extension: a followed log (``logs --follow``), see the module's documentation."""
STREAM = "trainstack.stream"
"""A request extension: a log read whole (no size limit: read line by line, in time)."""
ALONE = "trainstack.alone"
"""A request extension: a request with a deadline of its own (see the module's documentation)."""


@dataclass(frozen=True)
class ReadLimits:
    """The bounds of one command's requests (see the module's documentation)."""

    timeout: float = DEFAULT_TIMEOUT
    deadline: float = DEFAULT_DEADLINE
    max_response_bytes: int = MAX_API_RESPONSE_BYTES
    max_pages: int = MAX_API_PAGES
    page_size: int = API_PAGE_SIZE


class LimitExceeded(Exception):
    """A bound of :class:`ReadLimits` was hit (the message says which)."""


class GuardedTransport(httpx2.BaseTransport):
    """The HTTP transport under lightkube's client: every request and answer within bounds."""

    def __init__(
        self, inner: httpx2.BaseTransport, limits: ReadLimits, authorizer: Authorizer | None = None
    ) -> None:
        self.inner = inner
        self.limits = limits
        self.authorizer = authorizer
        self.started = time.monotonic()
        self.requests = 0
        """Requests sent so far (``inspect`` reports it)."""
        self._pages: dict[str, int] = {}
        self._alone = threading.local()
        """``ends``: the deadline of the :data:`ALONE` request this thread is sending."""

    def remaining(self) -> float:
        """Seconds left before the deadline: the command's, or the request's own while this
        thread sends an :data:`ALONE` request (its credentials included)."""
        ends = getattr(self._alone, "ends", None) or self.started + self.limits.deadline
        return ends - time.monotonic()

    def renew(self) -> None:
        """Count the deadline (and the pages of each list) from now: one poll of a command
        that follows jobs for hours (``run --wait``) is bounded like a command of its own."""
        self.started = time.monotonic()
        self._pages.clear()

    def past_deadline(self) -> LimitExceeded:
        return LimitExceeded(f"not done within --deadline {self.limits.deadline:g} s")

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        alone = bool(request.extensions.get(ALONE))
        self._alone.ends = time.monotonic() + self.limits.deadline if alone else None
        try:
            return self._handle(request)
        finally:
            self._alone.ends = None

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        remaining = self.remaining()
        ends = time.monotonic() + remaining
        if remaining <= 0:
            raise self.past_deadline()
        follow = bool(request.extensions.get(FOLLOW))
        timeouts = request.extensions.get("timeout") or {}
        limit = self.limits.timeout if follow else remaining
        request.extensions["timeout"] = {
            name: limit if timeouts.get(name) is None else min(timeouts[name], limit)
            for name in ("connect", "read", "write", "pool")
        }
        path = request.url.path
        pages = self._pages.get(path, 0) + 1 if "continue" in request.url.params else 1
        if pages > self.limits.max_pages:
            raise LimitExceeded(
                f"more than {self.limits.max_pages} pages, each with a `continue` token for "
                "the next: refused (trainstack's limit on one list)"
            )
        self._pages[path] = pages
        self.requests += 1
        # gzip only, decompressed below within the size limit (never a bomb's worth).
        request.headers["Accept-Encoding"] = "gzip"
        response = self._send(request)
        if follow:  # the headers came in time; the lines come when the pod writes them
            request.extensions["timeout"]["read"] = None
        headers = httpx2.Headers(response.headers)
        encoding = headers.pop("Content-Encoding", "identity").strip().lower()
        if encoding not in ("identity", "gzip"):
            response.close()
            raise LimitExceeded(f"an answer encoded as {printable(encoding, 40)}, not asked for")
        headers.pop("Content-Length", None)
        # lightkube reads an error's Content-Type and fails on an answer without one.
        headers.setdefault("Content-Type", "application/octet-stream")
        kind = headers["Content-Type"].split(";")[0].strip().lower()
        streamed = follow or bool(request.extensions.get(STREAM))
        stream = _GuardedStream(
            self,
            response.stream,
            whole=kind == "application/json",
            gzip=encoding == "gzip",
            bounded=not (streamed and response.status_code == 200),
            ends=None if follow else ends,
        )
        return httpx2.Response(
            response.status_code, headers=headers, stream=stream, extensions=response.extensions
        )

    def _send(self, request: httpx2.Request) -> httpx2.Response:
        """The request, authorised; once more with fresh credentials after a 401."""
        if self.authorizer is None:
            return self.inner.handle_request(request)
        self.authorizer.apply(request)
        response = self.inner.handle_request(request)
        if response.status_code == 401 and self.authorizer.refreshes:
            response.close()
            self.authorizer.apply(request, fresh=True)
            self.requests += 1
            response = self.inner.handle_request(request)
        return response

    def close(self) -> None:
        self.inner.close()


class _GuardedStream(httpx2.SyncByteStream):
    """An answer's body, decompressed, counted and timed as it arrives; a JSON one checked
    whole before it is handed on."""

    def __init__(
        self,
        transport: GuardedTransport,
        inner: Any,
        whole: bool,
        gzip: bool,
        bounded: bool = True,
        ends: float | None = None,
    ) -> None:
        self.transport = transport
        self.inner = inner
        self.whole = whole and bounded
        self.bounded = bounded
        self.ends = ends
        """When the answer must be whole (``time.monotonic()``); ``None``: never."""
        self.decoder = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16) if gzip else None

    def __iter__(self) -> Iterator[bytes]:
        limit = self.transport.limits.max_response_bytes
        size = 0
        kept: list[bytes] = []
        for data in self.inner:
            for chunk in self._decoded(data):
                size += len(chunk)
                if self.bounded and size > limit:
                    raise LimitExceeded(
                        f"an answer larger than {limit} bytes: refused (trainstack's limit)"
                    )
                if self.ends is not None and time.monotonic() >= self.ends:
                    raise self.transport.past_deadline()
                if self.whole:
                    kept.append(chunk)
                else:
                    yield chunk
        if self.whole:
            data = b"".join(kept)
            if raw_too_deep(data):
                raise LimitExceeded(f"{TOO_DEEP}: refused (trainstack's limit)")
            yield data

    def _decoded(self, data: bytes) -> Iterator[bytes]:
        """``data`` decompressed, in pieces of at most :data:`PIECE` bytes (a bomb never
        grows in memory past one piece before the size limit sees it)."""
        if self.decoder is None:
            yield data
            return
        while data:
            try:
                piece = self.decoder.decompress(data, PIECE)
            except zlib.error:
                raise LimitExceeded("an answer that is not valid gzip") from None
            yield piece
            data = self.decoder.unconsumed_tail

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
