"""Extracting a revision's ``git archive`` safely: any tree, bounded, nothing followed.

A revision is whatever someone committed (a pull request). Its archive is read as a
stream (never whole in memory) and extracted with Python's ``data`` filter, except that
a symbolic link whose target is absolute or leaves the tree (``/dev/zero``,
``../../etc``) is not an error: it is left out, and only refused (:class:`DiffError`
naming it) when it stands where the plan reads — the project file, the program, the
stack files, experiments, the chart or the code (:data:`PLAN_INPUTS`). A link inside the
tree is extracted as a link. git archives hold no FIFOs or devices; anything but files,
directories and links is left out all the same.

Bounded: at most :data:`MAX_REVISION_BYTES` of files and :data:`MAX_REVISION_MEMBERS`
entries (far above a project; a revision over them is refused, naming the bound). A
full disk or a file-size limit while extracting is one error line, not a traceback.
"""

from __future__ import annotations

import errno
import os
import tarfile
from pathlib import PurePosixPath
from typing import IO

from trainstack.core.errors import DiffError

MAX_REVISION_BYTES = 2 << 30
"""Bytes of files in a revision's tree: 2 GiB."""
MAX_REVISION_MEMBERS = 500_000
"""Files, directories and links in a revision's tree."""
PLAN_INPUTS = frozenset(
    {"Pulumi.yaml", "__main__.py", "stacks", "experiments", "charts", "components", "trainstack"}
)
"""What the plan reads, by its first component in the project directory (and the stack
configuration directory ``Pulumi.yaml`` names, given to :func:`refuse_links_into`)."""


class _Filter:
    """The ``data`` filter, links leaving the tree left out and noted, sizes counted."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.left_out: dict[str, str] = {}
        self._bytes = 0
        self._members = 0

    def __call__(self, member: tarfile.TarInfo, destination: str) -> tarfile.TarInfo | None:
        self._members += 1
        if self._members > MAX_REVISION_MEMBERS:
            raise DiffError(
                f"{self.where} has more than {MAX_REVISION_MEMBERS} files and directories "
                "(trainstack's bound for a revision's tree)"
            )
        self._bytes += member.size
        if self._bytes > MAX_REVISION_BYTES:
            raise DiffError(
                f"{self.where} holds more than {MAX_REVISION_BYTES} bytes of files "
                "(trainstack's bound for a revision's tree)"
            )
        if not (member.isfile() or member.isdir() or member.issym()):
            self.left_out[member.name] = "not a file, directory or link"
            return None
        try:
            return tarfile.data_filter(member, destination)
        except (tarfile.AbsoluteLinkError, tarfile.LinkOutsideDestinationError):
            self.left_out[member.name] = member.linkname
            return None
        except tarfile.FilterError as error:
            raise DiffError(
                f"{self.where}: {member.name!r} cannot be extracted ({error})"
            ) from None


def extract(stream: IO[bytes], root: str, where: str) -> dict[str, str]:
    """Extract the tar ``stream`` into the directory ``root``; returns the links left out
    (their paths in the archive, and where each pointed)."""
    keep = _Filter(where)
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            tar.extractall(root, filter=keep)
    except OSError as error:
        raise DiffError(f"cannot extract {where} into {root}: {_reason(error)}") from None
    except tarfile.TarError as error:
        raise DiffError(
            f"cannot extract {where}: git archive gave no valid tar ({error})"
        ) from None
    return keep.left_out


def refuse_links_into(left_out: dict[str, str], prefix: str, stack_dir: str, where: str) -> None:
    """A link left out where the plan reads (``prefix``: the project's directory in the
    repository; ``stack_dir``: the stack files' directory, relative to it) is an error."""
    inputs = PLAN_INPUTS | {PurePosixPath(stack_dir).parts[0]} if stack_dir else PLAN_INPUTS
    for name, target in sorted(left_out.items()):
        path = PurePosixPath(name)
        if prefix and not path.is_relative_to(prefix):
            continue
        inside = path.relative_to(prefix) if prefix else path
        if inside.parts and inside.parts[0] in inputs:
            raise DiffError(
                f"{where}: {inside} is a symbolic link to {target!r}, outside the revision's "
                "tree; trainstack never follows one: commit the file itself"
            )


def _reason(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the file system is full ({os.strerror(error.errno)})"
    if error.errno == errno.EFBIG:
        return f"a file is over the size limit ({os.strerror(error.errno)})"
    return error.strerror or str(error)
