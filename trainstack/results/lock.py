"""One recording command at a time per stack: ``results/STACK/.lock``.

``results add`` and ``collect`` read the run numbers taken, then write new ones; two at
once would pick the same number (one fails, or a run is lost). Each takes an exclusive
``flock`` on ``results/STACK/.lock`` for the whole write; a second waits for it, up to
:data:`LOCK_TIMEOUT` seconds, then stops naming the lock. The lock file stays (removing
it would let a third command lock a different file); it is empty and git-ignored.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from trainstack.core.errors import ResultsError

LOCK_NAME = ".lock"
LOCK_TIMEOUT = 120.0
"""Seconds a recording command waits for another one on the same stack."""
_POLL = 0.05


@contextmanager
def stack_lock(directory: Path, display: Callable[[Path], str]) -> Iterator[None]:
    """Hold ``directory/.lock`` exclusively (the directory is created when missing)."""
    path = directory / LOCK_NAME
    try:
        directory.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as error:
        raise ResultsError(f"cannot lock {display(path)}: {error.strerror}") from error
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise ResultsError(
                        f"{display(path)}: another `trainstack results` command has been "
                        f"recording into {display(directory)} for {LOCK_TIMEOUT:.0f} s; "
                        "try again when it ends"
                    ) from None
                time.sleep(_POLL)
        yield
    finally:
        os.close(descriptor)
