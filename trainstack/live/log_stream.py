"""A log read as it arrives: cut into lines, and, when followed, ended from another thread.

``logs --follow`` reads the log in the main thread while :mod:`trainstack.live.follow`
checks the pod in another; when the pod has ended and the server still holds the stream
open, that thread calls :meth:`Hangup.hang_up`. Closing the HTTP answer from there would
not do: ``close()`` of a socket leaves a ``recv()`` blocked in another thread waiting
until data comes (Linux; checked with httpx2/httpcore2 and h11 against a loopback server,
plain and TLS), so :meth:`Hangup.hang_up` shuts the connection's socket down
(``shutdown(SHUT_RDWR)``), which ends that ``recv()`` at once. The reading thread then
sees the end of the answer (or an error about its cut body, which :func:`split_lines`
takes for the end), and closes the answer itself, as after any other end.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import httpx2

MAX_LINE_BYTES = 1 << 20
"""Bytes of one line of a log; a longer one is cut into lines of this size."""


class Hangup:
    """A followed log's connection, which another thread can end (module documentation)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self.waiting_since: float | None = None
        """Since when (``time.monotonic()``) the reading thread has been waiting for the
        log's next bytes; ``None`` while it handles what came (prints it: a slow terminal
        or pipe is not a quiet log)."""
        self.hung_up = False
        """Whether :meth:`hang_up` ended the stream (rather than the server)."""
        self._waited = 0.0
        """Seconds spent waiting for the log's bytes in all, the waits that ended."""

    def opened(self, extensions: Mapping[str, Any]) -> None:
        """The answer's headers came: keep its connection's socket (``extensions``: the
        answer's, where httpcore names its network stream)."""
        stream = extensions.get("network_stream")
        found = stream.get_extra_info("socket") if stream is not None else None
        with self._lock:
            self._socket = found if isinstance(found, socket.socket) else None

    def quiet(self) -> float:
        """Seconds the reading thread has been waiting for the log's next bytes (0: busy)."""
        since = self.waiting_since
        return 0.0 if since is None else time.monotonic() - since

    def waited(self) -> float:
        """Seconds the reading thread has waited for the log's bytes in all (the current
        wait included): a log trickling a byte a second is never :meth:`quiet` for long,
        but this grows with every wait."""
        return self._waited + self.quiet()

    def wait_ended(self, since: float) -> None:
        """The reading thread's wait begun at ``since`` (``time.monotonic()``) is over."""
        self._waited += time.monotonic() - since
        self.waiting_since = None

    def hang_up(self) -> bool:
        """End the stream now, from any thread; ``False`` when it is not open (any more)."""
        with self._lock:
            if self._socket is None:
                return False
            self.hung_up = True
            with contextlib.suppress(OSError):  # already shut by the server
                # socket.socket's own, also for a TLS socket: its TLS state is the reader's.
                socket.socket.shutdown(self._socket, socket.SHUT_RDWR)
            self._socket = None
            return True

    def closed(self) -> None:
        """The reading thread is done with the stream (before its connection is reused)."""
        with self._lock:
            self._socket = None


def split_lines(chunks: Iterable[bytes], hangup: Hangup | None = None) -> Iterator[str]:
    """``chunks`` of a log, line by line (each ending in a newline; one longer than
    :data:`MAX_LINE_BYTES` cut into several); with ``hangup``, the waits for the next
    chunk are noted, and a stream it ended simply ends (its last, partial line included)."""
    pending = b""
    try:
        for chunk in chunks if hangup is None else _waits(chunks, hangup):
            pending += chunk
            *whole, pending = pending.split(b"\n")
            while len(pending) > MAX_LINE_BYTES:
                whole.append(pending[:MAX_LINE_BYTES])
                pending = pending[MAX_LINE_BYTES:]
            for line in whole:
                yield line.decode("utf-8", errors="replace") + "\n"
    except (httpx2.HTTPError, OSError):
        if hangup is None or not hangup.hung_up:
            raise
    finally:
        if hangup is not None:
            hangup.closed()
    if pending:
        yield pending.decode("utf-8", errors="replace") + "\n"


def _waits(chunks: Iterable[bytes], hangup: Hangup) -> Iterator[bytes]:
    """``chunks``, noting in ``hangup`` while the next one is waited for."""
    iterator = iter(chunks)
    while True:
        hangup.waiting_since = since = time.monotonic()
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        finally:
            hangup.wait_ended(since)
        yield chunk
