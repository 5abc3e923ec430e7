"""A git revision of the project, extracted into a temporary directory.

``git archive`` only reads the repository: the user's working tree, index, branches,
stash and worktree list are never touched, and the directory is removed afterwards.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from trainstack.console.signals import removed_on_stop
from trainstack.core.errors import DiffError


@dataclass(frozen=True)
class BaseCheckout:
    """The files of ``ref`` (commit ``commit``); the project sits at ``project_root``."""

    ref: str
    commit: str
    project_root: Path

    @property
    def where(self) -> str:
        """``origin/main (1a2b3c4)``."""
        return f"{self.ref} ({self.commit[:7]})"


@contextlib.contextmanager
def checkout(project_root: Path, ref: str) -> Iterator[BaseCheckout]:
    """The project as it is at ``ref``, in a temporary directory removed on exit."""
    top = Path(_git(project_root, "rev-parse", "--show-toplevel", what="find the repository"))
    prefix = _git(project_root, "rev-parse", "--show-prefix", what="find the repository")
    commit = _resolve(top, ref)
    archive = _run(["git", "-C", str(top), "archive", "--format=tar", commit])
    if archive.returncode != 0:
        raise DiffError(f"git archive {ref} failed: {_text(archive.stderr)}")
    with (
        tempfile.TemporaryDirectory(prefix="trainstack-base-") as scratch,
        removed_on_stop(Path(scratch)) as root,
    ):
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(root, filter="data")
        yield BaseCheckout(ref=ref, commit=commit, project_root=root / prefix)


def _resolve(top: Path, ref: str) -> str:
    result = _run(["git", "-C", str(top), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    if result.returncode != 0 or not _text(result.stdout):
        raise DiffError(
            f"unknown git revision {ref!r} in {top}: give a branch, tag or commit that exists "
            "locally (in CI, check out with fetch-depth: 0 so that origin/main is there)"
        )
    return _text(result.stdout)


def _git(directory: Path, *args: str, what: str) -> str:
    result = _run(["git", "-C", str(directory), *args])
    if result.returncode != 0:
        raise DiffError(
            f"cannot {what}: {directory} is not inside a git repository "
            f"(git said: {_text(result.stderr)}); --base needs one"
        )
    return _text(result.stdout)


def _run(command: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(command, capture_output=True, check=False)
    except FileNotFoundError as error:
        raise DiffError("git is not installed or not on PATH; --base needs it") from error


def _text(output: bytes) -> str:
    return output.decode("utf-8", errors="replace").strip()
