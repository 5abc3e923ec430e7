"""The ``trainstack plan`` processes a diff starts for revisions, so that a stop ends them."""

from __future__ import annotations

import contextlib
import subprocess
import threading

from trainstack.core.errors import DiffError

KILL_WAIT_SECONDS = 1.0
"""How long a stop's guard waits for each killed plan to be gone (SIGKILL: at once)."""


class Children:
    """The ``trainstack plan`` processes started for revisions, so they can be stopped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._processes: list[subprocess.Popen[str]] = []
        self._stopped = False

    def start(self, command: list[str], cwd: str, env: dict[str, str]) -> subprocess.Popen[str]:
        """Start ``command`` (refused once :meth:`stop` was called)."""
        with self._lock:
            if self._stopped:
                raise DiffError("the diff was stopped")
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            self._processes.append(process)
            return process

    def stop(self) -> None:
        """SIGTERM to every running plan: each removes its staging directory and exits."""
        with self._lock:
            self._stopped = True
            for process in self._processes:
                if process.poll() is None:
                    process.terminate()

    def kill(self) -> None:
        """SIGKILL to every plan still running (a stop's guard ends this process: no child
        may outlive it; whatever a child staged is inside the diff's scratch directory,
        which the guard removes next)."""
        self._stopped = True
        killed = [process for process in list(self._processes) if process.poll() is None]
        for process in killed:
            process.kill()
        # Until each is gone: one still running on another core could write a file into
        # the scratch directory while the guard removes it.
        for process in killed:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=KILL_WAIT_SECONDS)
