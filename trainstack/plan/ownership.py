"""Which directories are trainstack's plans: the only ones it ever replaces or removes.

A plan directory holds the marker file :data:`MARKER`; a plan written before the marker
existed holds plan files only; an empty directory holds nothing to lose. Symbolic links
are never followed nor removed: a plan that holds one is not replaced.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
from pathlib import Path

from trainstack.console.held_signals import deferred
from trainstack.core.errors import OutputError

MARKER = ".trainstack-plan"
MARKER_TEXT = (
    "Written by `trainstack plan`. The next plan of this stack replaces this directory\n"
    "whole; trainstack only ever deletes directories that hold this file.\n"
)


def check_replaceable(target: Path) -> None:
    """Refuse to replace anything but a plan directory (or an empty one)."""
    try:
        status = target.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(status.st_mode):
        raise OutputError(
            f"{target} is a symbolic link; trainstack never follows or removes links in its "
            "output: remove it, or choose another --output-dir"
        )
    if not stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{target} exists and is not a directory; move it away first")
    if not _is_ours(target):
        raise OutputError(
            f"{target} exists and was not written by `trainstack plan` (it has no {MARKER} "
            "file): trainstack replaces only its own plans; move it away or choose another "
            "--output-dir"
        )
    link = first_link(target)
    if link is not None:
        raise OutputError(
            f"{link} is a symbolic link inside the plan directory {target}; trainstack "
            "never writes links, so something else changed this directory: move it away"
        )


# What plans written before the marker existed hold (trainstack 0.1): nothing else.
_PLAN_FILES = frozenset(
    {
        "resources.json",
        "objects.json",
        "experiments.json",
        "provider-config.json",
        "secret-digests.json",
        "outputs.json",
        "datasets.json",
        "NOTES.txt",
    }
)
_PLAN_VIEWS = frozenset({"resources", "objects"})


def _is_ours(directory: Path) -> bool:
    """A plan directory trainstack wrote (its marker, or an earlier plan), or an empty one."""
    marker = directory / MARKER
    if marker.is_file() and not marker.is_symlink():
        return True
    return not os.listdir(directory) or _earlier_plan(directory)


def _earlier_plan(directory: Path) -> bool:
    """A plan of an earlier trainstack: its files only, views holding only ``.yaml`` files."""
    entries = set(os.listdir(directory))
    if "resources.json" not in entries or not entries <= _PLAN_FILES | _PLAN_VIEWS:
        return False
    for name in entries:
        path = directory / name
        if path.is_symlink() or (name in _PLAN_VIEWS) != path.is_dir():
            return False
        if name in _PLAN_VIEWS and not all(
            entry.endswith(".yaml") and (path / entry).is_file() for entry in os.listdir(path)
        ):
            return False
    return True


def first_link(directory: Path) -> Path | None:
    for base, dirs, files in os.walk(directory, followlinks=False):
        for name in sorted(dirs + files):
            path = Path(base) / name
            if path.is_symlink():
                return path
    return None


def clean_leftovers(root: Path, stack: str, target: Path) -> None:
    """Staging and swapped-out directories of plans that died (SIGKILL, a crash): those with
    the marker, and empty ones."""
    pattern = re.compile(rf"\.{re.escape(stack)}\.trainstack-(new|old)-(\d+)-[A-Za-z0-9_]+")
    for entry in sorted(os.listdir(root)):
        match = pattern.fullmatch(entry)
        if match is None or _alive(int(match.group(2))):
            continue
        path = root / entry
        if path.is_symlink() or not path.is_dir():
            continue
        if not (path / MARKER).is_file():
            # Killed between making its staging directory and writing the marker: empty.
            with contextlib.suppress(OSError):
                path.rmdir()  # fails unless empty: someone's files stay
            continue
        with deferred():
            if match.group(1) == "old" and not os.path.lexists(target):
                os.rename(path, target)  # the swap was cut between its two renames
            elif first_link(path) is None:
                shutil.rmtree(path)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_ours(directory: Path) -> None:
    """Remove a plan directory (checked again: it must still be a plan of trainstack's)."""
    if not _is_ours(directory):
        raise OutputError(f"{directory} is no longer a plan of trainstack's; it is left in place")
    shutil.rmtree(directory)
