"""Does a run's kept log still hold what its record was read from?

``results add`` and ``collect`` keep each run's raw log beside its record
(``run-NNN.log``) with its size and sha256. ``compare`` checks them: a log edited,
replaced, removed, or turned into a link or a special file after recording makes its
pair not comparable, naming the file; nothing else is trusted in its place. A link is
never followed and a FIFO or device never opened (``lstat`` first, ``O_NOFOLLOW``).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from trainstack.results.paths import log_name
from trainstack.results.store import StoredRun

_CHUNK = 1 << 20


def _sha256(path: Path) -> str:
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as handle:
        digest = hashlib.sha256()
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def log_problem(run: StoredRun, display: Callable[[Path], str]) -> str:
    """What is wrong with ``run``'s kept log, or "" when it matches its record."""
    record = run.record
    path = run.path.with_name(log_name(record.run))
    if record.log.file != log_name(record.run):
        return f"{display(run.path)} names log {record.log.file!r}; expected {path.name!r}"
    try:
        status = os.lstat(path)
        if not stat.S_ISREG(status.st_mode):
            return f"{display(path)} is not a regular file (a link or a special file): not read"
        if status.st_size != record.log.bytes:
            return (
                f"{display(path)} has {status.st_size} bytes, its record {record.log.bytes}: "
                "the log "
                "changed after recording"
            )
        found = _sha256(path)
    except FileNotFoundError:
        return f"{display(path)} is missing: the log its run was read from"
    except OSError as error:
        return f"cannot read {display(path)}: {error.strerror}"
    if found != record.log.sha256:
        return (
            f"{display(path)} has sha256 {found[:12]}, its record {record.log.sha256[:12]}: "
            "the log "
            "changed after recording"
        )
    return ""
