"""The plan directory of a stack: replaced whole or not at all, and only when it is ours.

Contract of ``trainstack plan STACK --output-dir OUT`` (and of every plan ``trainstack
diff`` makes), on every way out — success, a bad input, Ctrl-C (SIGINT), SIGTERM,
SIGHUP, a full disk (ENOSPC, EDQUOT, EFBIG under ``ulimit -f``), a read-only or
unwritable directory:

1. ``OUT/STACK`` is either the previous plan, intact, or the new plan, whole. The new
   plan is written into a staging directory next to it, ``OUT/.STACK.trainstack-new-
   <pid>-<random>``, and swapped in with one ``renameat2(RENAME_EXCHANGE)`` (Linux 3.15+,
   most local file systems). Where that call is missing or refused, two renames
   (old -> ``.STACK.trainstack-old-<pid>-<random>``, staging -> ``OUT/STACK``) run with
   SIGINT, SIGTERM and SIGHUP blocked, and the first is undone if the second fails.
2. Staging and swapped-out directories are removed before the command exits (also on
   those signals, which are blocked while a directory is being removed). Only SIGKILL or
   a crash of the machine can leave one behind; the next plan of the stack removes it
   (or, if the stack's directory is missing, renames it back) once its process is gone.
3. Nothing else is ever deleted or overwritten: ``OUT/STACK`` is replaced only when it
   holds the marker file ``.trainstack-plan`` that every plan writes (or is an empty
   directory, or a plan of an earlier trainstack: plan files only); any other file or
   directory there is refused with exit status 2, as is a symbolic link anywhere in it
   (never followed, never removed). ``STACK`` must be a
   valid Pulumi stack name (:func:`trainstack.core.file_names.check_stack_name`).

Not covered: a power loss right after the swap may, depending on the file system, leave
files of the new plan empty (the plan does not ``fsync``: it would cost more than the
plan itself, and a plan is re-made in seconds).

For tests, ``TRAINSTACK_TEST_PAUSE_AT=<point>[:<seconds>]`` makes the writer print
``paused at <point>`` on stderr and wait there until a signal arrives, at most that long
(30 s by default; points: ``made``, ``writing``, ``written``, ``swapping``, ``swapped`` — the
first and the last with signals held), so that a test can signal the real process at that
very point without guessing how long to sleep.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import re
import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from trainstack.console.held_signals import deferred
from trainstack.console.safe_text import printable
from trainstack.console.signals import made_and_removed, raise_if_stopping, signal_arrived
from trainstack.core.errors import EnvironmentVariableError, OutputError
from trainstack.core.file_names import check_stack_name, child
from trainstack.plan.ownership import (
    MARKER,
    MARKER_TEXT,
    check_replaceable,
    clean_leftovers,
    remove_ours,
)

PAUSE_ENV = "TRAINSTACK_TEST_PAUSE_AT"
PAUSE_SECONDS = 30.0

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
# Errors meaning "this system or file system cannot do renameat2 (with these flags)".
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}


def pause_setting() -> tuple[str, float]:
    """(point, seconds) of :data:`PAUSE_ENV`; checked before a plan starts writing, so
    that a malformed one is one error with nothing written."""
    wanted, _, seconds = os.environ.get(PAUSE_ENV, "").partition(":")
    if seconds and not re.fullmatch(r"[0-9]{1,4}(\.[0-9]{1,3})?", seconds):
        raise EnvironmentVariableError(
            PAUSE_ENV, printable(repr(seconds), 40), "POINT or POINT:SECONDS (e.g. 2.5)"
        )
    return wanted, float(seconds) if seconds else PAUSE_SECONDS


def checkpoint(point: str) -> None:
    """Pause at ``point`` when a test asks for it (see the module docstring)."""
    wanted, seconds = pause_setting()
    if wanted == point:
        sys.stderr.write(f"paused at {point}\n")
        sys.stderr.flush()
        until = time.monotonic() + seconds
        while time.monotonic() < until and not signal_arrived():
            time.sleep(0.01)


@contextlib.contextmanager
def replacing(output_dir: Path, stack: str) -> Iterator[Path]:
    """An empty staging directory; when the block succeeds it becomes ``output_dir/stack``.

    Raises :class:`OutputError` when ``output_dir`` cannot hold the plan, or when
    ``output_dir/stack`` exists and is not a plan directory of trainstack's.
    """
    check_stack_name(stack)
    root = _output_root(output_dir)
    target = child(root, stack)
    try:
        check_replaceable(target)
        clean_leftovers(root, stack, target)
    except OSError as error:
        raise _output_error(error, root) from None
    # The staging directory is removed on every way out, a stop's guard included
    # (signals.py): before the swap it holds the unfinished plan, after it the replaced one.
    try:
        make = functools.partial(_make_staging, root, stack)
        with made_and_removed(make, _remove_staging) as staging:
            _write_marker(staging)
            yield staging
            checkpoint("swapping")
            with deferred():
                raise_if_stopping()  # a stop whose exception was lost on the way: no swap
                check_replaceable(target)
                replaced = _swap(staging, target, root, stack)
                checkpoint("swapped")
                if replaced is not None:
                    remove_ours(replaced)
    except OSError as error:
        raise _output_error(error, target) from None


def _make_staging(root: Path, stack: str) -> Path:
    """A new, empty staging directory (made with the signals held)."""
    staging = root / f".{stack}.trainstack-new-{os.getpid()}-{secrets.token_hex(6)}"
    try:
        staging.mkdir(mode=0o755)
    except OSError as error:
        raise _output_error(error, root) from None
    checkpoint("made")
    return staging


def _remove_staging(staging: Path) -> None:
    if staging.exists() and not staging.is_symlink():
        remove_ours(staging)


def _output_root(output_dir: Path) -> Path:
    if output_dir.exists() and not output_dir.is_dir():
        raise OutputError(
            f"--output-dir {output_dir} is a file, not a directory; give a directory "
            "(it is created when missing)"
        )
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _output_error(error, output_dir) from None
    return output_dir.resolve()


def _write_marker(directory: Path) -> None:
    with (directory / MARKER).open("x", encoding="utf-8", newline="\n") as handle:
        handle.write(MARKER_TEXT)


def _swap(staging: Path, target: Path, root: Path, stack: str) -> Path | None:
    """Put ``staging`` at ``target``; return where the previous plan now is (if any)."""
    if os.path.lexists(target):
        if _renameat2(staging, target, _RENAME_EXCHANGE):
            return staging
        old = root / f".{stack}.trainstack-old-{os.getpid()}-{secrets.token_hex(6)}"
        os.rename(target, old)
        try:
            os.rename(staging, target)
        except OSError:
            os.rename(old, target)
            raise
        return old
    if not _renameat2(staging, target, _RENAME_NOREPLACE):
        os.rename(staging, target)
    return None


def _renameat2(source: Path, target: Path, flags: int) -> bool:
    """``renameat2(2)`` through libc; ``False`` when the system cannot do it here."""
    function = getattr(_libc(), "renameat2", None)
    if function is None:
        return False
    result = function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(source), None, str(target))


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _output_error(error: OSError, where: Path) -> OutputError:
    code = errno.errorcode.get(error.errno or 0, "?")
    reason = error.strerror or str(error)
    return OutputError(
        f"cannot write the plan in {where}: {reason} ({code}); the previous plan, if any, "
        "is unchanged"
    )
