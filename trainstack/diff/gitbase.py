"""A git revision of the project, extracted into a temporary directory.

``git archive`` only reads the repository: the user's working tree, index, branches,
stash and worktree list are never touched, and the directory is removed afterwards.
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from trainstack.console.signals import scratch_directory
from trainstack.core.errors import DiffError, TrainstackError
from trainstack.core.project import Project
from trainstack.diff.extract import extract, refuse_links_into


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
    """The project as it is at ``ref``, in a temporary directory removed on exit.

    Any tree is safe to extract (:mod:`trainstack.diff.extract`): nothing is followed,
    links leaving the tree are left out (an error where the plan reads), it is bounded.
    """
    top = Path(_git(project_root, "rev-parse", "--show-toplevel", what="find the repository"))
    prefix = _git(project_root, "rev-parse", "--show-prefix", what="find the repository")
    commit = _resolve(top, ref)
    where = f"{ref} ({commit[:7]})"
    with (
        scratch_directory("trainstack-base-") as root,
    ):
        left_out = _archive(top, commit, ref, str(root), where)
        project = root / prefix
        refuse_links_into(left_out, prefix.rstrip("/"), _stack_dir(project), where)
        yield BaseCheckout(ref=ref, commit=commit, project_root=project)


def _archive(top: Path, commit: str, ref: str, root: str, where: str) -> dict[str, str]:
    """``git archive`` of ``commit`` extracted into ``root`` as it streams."""
    with tempfile.TemporaryFile() as errors:
        try:
            git = subprocess.Popen(
                ["git", "-C", str(top), "archive", "--format=tar", commit],
                stdout=subprocess.PIPE,
                stderr=errors,
            )
        except FileNotFoundError as error:
            raise DiffError("git is not installed or not on PATH; --base needs it") from error
        assert git.stdout is not None
        try:
            left_out = extract(git.stdout, root, where)
            # The end-of-archive padding git may still be writing: read it, so that git
            # never writes into a closed pipe (SIGPIPE: a failure of a good archive).
            while git.stdout.read(1 << 16):
                pass
        except BaseException:
            git.kill()
            raise
        finally:
            git.stdout.close()
            status = git.wait()
        if status != 0:
            errors.seek(0)
            raise DiffError(f"git archive {ref} failed: {_text(errors.read())}")
    return left_out


def _stack_dir(project: Path) -> str:
    """Where the revision keeps its stack files, relative to its project (``""``: unknown)."""
    try:
        stack_dir = Project.load(project).stack_config_dir
        return stack_dir.relative_to(project).as_posix() if stack_dir != project else ""
    except (TrainstackError, ValueError):
        return ""  # no Pulumi.yaml, or one the plan will refuse with its own message


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
