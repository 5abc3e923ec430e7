"""Reading the files users write: bounded, and returned with the name messages give them.

Every reader of user files goes through :func:`read_source`, which returns the text with
its :class:`SourceText` (how messages name the file, and where it is), so that whoever
prints a message about it can find a key's line in it again
(:mod:`trainstack.core.yaml.positions`): the file travels with the values read from it,
never through a table of the files a process has read (a message would then get the
line of another project's file of the same name).
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from trainstack.core.errors import InputLimitError, Problem, YamlSyntaxError
from trainstack.core.limits import MAX_FILE_BYTES
from trainstack.core.mentions import Files


@dataclass(frozen=True)
class SourceText:
    """A file the user wrote, read: how messages name it, where it is, what it holds."""

    display: str
    path: Path
    text: str

    @property
    def files(self) -> Files:
        """The file by the name messages give it, for an error about it."""
        return {self.display: self.path}


def read_source(path: Path, display: str | None = None) -> SourceText:
    """The text of a file the user wrote: a regular file, at most ``MAX_FILE_BYTES``, UTF-8.

    Checked before reading, so that ``/dev/zero`` or a 10 GB file is refused at once.
    ``display``: how messages name it (default: ``path`` as given).
    """
    source = display or str(path)
    files = {source: path}
    not_regular = InputLimitError(
        source, [Problem("(file)", "a directory, device or pipe", "a regular file")], files
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
            source, [Problem("(file)", f"unreadable ({reason})", "a readable file")], files
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
            files,
        )
    try:
        return SourceText(source, path, data.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        found = f"the byte 0x{data[error.start]:02x}, which is not UTF-8"
        raise YamlSyntaxError(
            source, [Problem(f"line {line}, column {column}", found, "UTF-8 text")], files
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
