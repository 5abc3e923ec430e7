"""Reading the files users write: bounded, and remembered by the name messages give them.

Every reader of user files goes through :func:`read_text`, which records which file a
message's ``source`` names (:func:`remember`), so that whoever prints a message can find
the key's line in that file again (:mod:`trainstack.core.yaml.positions`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from trainstack.core.errors import InputLimitError, Problem, YamlSyntaxError
from trainstack.core.limits import MAX_FILE_BYTES

# Every experiment file a plan may read (MAX_EXPERIMENT_FILES), and stacks and templates:
# past this, a message names its file without the key's line.
_MAX_REMEMBERED = 16_384

_sources: dict[str, Path] = {}


def remember(source: str, path: Path) -> None:
    """``source`` (how messages name a file) is ``path`` on disk."""
    if len(_sources) < _MAX_REMEMBERED or source in _sources:
        _sources[source] = path


def remembered(source: str) -> Path | None:
    """The file on disk that messages name ``source``, if one was read under that name."""
    return _sources.get(source)


def read_text(path: Path, display: str | None = None) -> str:
    """The text of a file the user wrote: a regular file, at most ``MAX_FILE_BYTES``, UTF-8.

    Checked before reading, so that ``/dev/zero`` or a 10 GB file is refused at once.
    """
    source = display or str(path)
    remember(source, path)
    not_regular = InputLimitError(
        source, [Problem("(file)", "a directory, device or pipe", "a regular file")]
    )
    try:
        # stat first: opening a FIFO would wait for a writer
        if not stat.S_ISREG(path.stat().st_mode):
            raise not_regular
        with path.open("rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise not_regular
            data = read_at_most(handle.fileno(), MAX_FILE_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputLimitError(
            source, [Problem("(file)", f"unreadable ({reason})", "a readable file")]
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputLimitError(
            source,
            [
                Problem(
                    "(file)",
                    f"more than {MAX_FILE_BYTES} bytes",
                    f"at most {MAX_FILE_BYTES} bytes (1 MiB, trainstack's limit)",
                )
            ],
        )
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        found = f"the byte 0x{data[error.start]:02x}, which is not UTF-8"
        raise YamlSyntaxError(
            source, [Problem(f"line {line}, column {column}", found, "UTF-8 text")]
        ) from None


def open_regular(path: Path | str, *, follow_links: bool = False) -> int:
    """A descriptor to read ``path`` from, only if it is a regular file.

    Never opens a FIFO (that waits for a writer for ever), a device (``/dev/zero`` never
    ends) or a socket: the type is checked before opening, the open does not block, and
    the type is checked again on the descriptor (the path may have changed meanwhile).
    Without ``follow_links``, a symbolic link is refused (``O_NOFOLLOW``). Raises
    :class:`OSError` (``EINVAL`` for a file of another type, ``ELOOP`` for a link).
    """
    info = os.stat(path, follow_symlinks=follow_links)
    if not stat.S_ISREG(info.st_mode):
        link = stat.S_ISLNK(info.st_mode)
        code, what = (
            (errno.ELOOP, "a symbolic link") if link else (errno.EINVAL, "not a regular file")
        )
        raise OSError(code, what, str(path))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    descriptor = os.open(path, flags if follow_links else flags | os.O_NOFOLLOW)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    return descriptor


def read_at_most(descriptor: int, limit: int) -> bytes:
    """At most ``limit`` bytes of the file open at ``descriptor``: read to its size, then
    on to its end (it may have grown). Asking for ``limit`` at once would allocate that
    much for each file (a 1 MiB buffer for each of thousands of small results files)."""
    data = os.read(descriptor, min(os.fstat(descriptor).st_size + 1, limit))
    while len(data) < limit and (more := os.read(descriptor, limit - len(data))):
        data += more
    return data


def link_leaving(path: Path, root: Path) -> Path | None:
    """The first symbolic link on the way from ``root`` down to ``path`` (``path`` itself
    included) that leads outside ``root``, or ``None`` when everything stays inside.

    What a project's own directories (``experiments/``, ``results/``) hold is read and
    written only inside the project: a link elsewhere would print another file's start in
    an error (an experiment file linked to ``~/.git-credentials``) or write results into
    another directory.
    """
    home = root.resolve()
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path if not path.resolve().is_relative_to(home) else None
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink() and not current.resolve().is_relative_to(home):
            return current
    return None


def outside_problem(link: Path, allowed: str) -> Problem:
    """A link leaving the project, for an error naming it (its target, never its content)."""
    try:
        target = os.readlink(link)
    except OSError:
        target = "?"
    found = f"a symbolic link to {target!r}, outside the project"
    return Problem("(file)", found, allowed)
