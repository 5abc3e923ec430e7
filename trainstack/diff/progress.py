"""How far a diff's planning got, on one line of stderr that rewrites itself.

Only on a terminal: in a pipe, a file or a CI log nothing is printed (the report on
stdout is the output). Plans finish in several threads, hence the lock.
"""

from __future__ import annotations

import shutil
import sys
import threading
from typing import TextIO

from trainstack.console.terminal import colour_wanted


class Progress:
    """``planning 3/8: aiacc at origin/main (1a2b3c4) (2 from the cache)``."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._lock = threading.Lock()
        self._total = 0
        self._done = 0
        self._cached = 0
        self._running: list[str] = []
        self._shown = False

    @classmethod
    def on_terminal(cls, stream: TextIO | None = None) -> Progress | None:
        """A progress line for ``stream`` (stderr) when it is a terminal, else ``None``."""
        target = stream if stream is not None else sys.stderr
        try:
            return cls(target) if target.isatty() else None
        except (AttributeError, ValueError):
            return None

    def start(self, total: int, cached: int = 0) -> None:
        """``total`` plans to make; ``cached`` were found in the cache."""
        with self._lock:
            self._total, self._cached = total, cached
            self._draw()

    def planning(self, what: str) -> None:
        """A plan started."""
        with self._lock:
            self._running.append(what)
            self._draw()

    def done(self) -> None:
        """A plan finished (the oldest one running)."""
        with self._lock:
            self._done += 1
            if self._running:
                self._running.pop(0)
            self._draw()

    def finish(self) -> None:
        """Clear the line: the report follows."""
        with self._lock:
            if self._shown:
                self._stream.write("\r\x1b[K")
                self._stream.flush()
                self._shown = False

    def _draw(self) -> None:
        cached = f" ({self._cached} from the cache)" if self._cached else ""
        running = f": {', '.join(self._running)}" if self._running else ""
        text = f"planning {self._done}/{self._total}{cached}{running}"
        # One row only: a wrapped line could not be rewritten.
        width = shutil.get_terminal_size().columns - 1
        if len(text) > width:
            text = text[: max(0, width - 3)] + "..."
        if colour_wanted(self._stream):
            text = f"\x1b[2m{text}\x1b[0m"
        self._stream.write(f"\r\x1b[K{text}")
        self._stream.flush()
        self._shown = True
