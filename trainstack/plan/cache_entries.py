"""A cache entry: a plan with a signed manifest of its files, served only when it verifies.

An entry is ``plans/<digest>/`` holding exactly ``manifest.json`` and ``<stack>/`` (a plan
directory). The manifest lists every file of the plan with its SHA-256 and is signed with
an HMAC-SHA256 under the cache's secret-digest key (``secret-digest.key``, mode 0600), so
that an entry edited, truncated or replaced by hand no longer matches it.

Serving an entry copies it into the diff's own scratch directory, hashing each file as it
is copied, and the copy is used only if every file matches the manifest and nothing else
is there: the diff reads what was verified, not the cache (which could change between a
check and a read). While copying, nothing is followed and nothing special is opened: a
symbolic link, a FIFO, a device or a socket anywhere in the entry makes it unverified,
and so does a foreign file next to the plan. An unverified entry is removed and the plan
is made again (:meth:`trainstack.plan.cache.PlanCache.get`).

Storing a plan goes through the same copy: a plan directory holding anything but
directories and regular files (a revision's own code writes its plan) is not cached.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import stat
from pathlib import Path

from trainstack.core.files import open_regular, read_at_most

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
MAX_FILES = 100_000
"""Files of one cached plan (the example stacks' plans have some hundreds)."""
MAX_MANIFEST_BYTES = 32 << 20
_BLOCK = 1 << 20


class Unverified(Exception):
    """An entry (or a plan to store) that is not what its manifest says, or not only
    directories and regular files."""


def store(plan_dir: Path, entry: Path, stack: str, key: bytes, max_bytes: int) -> None:
    """Write the new directory ``entry``: a copy of ``plan_dir`` as ``<stack>/`` and its
    signed manifest. :class:`Unverified` when ``plan_dir`` holds anything else."""
    entry.mkdir(mode=0o700)
    files = copy_tree(plan_dir, entry / stack, max_bytes)
    document = {"format": MANIFEST_FORMAT, "stack": stack, "files": files}
    document["mac"] = _mac(key, stack, files)
    with os.fdopen(_create(entry / MANIFEST), "w", encoding="utf-8") as handle:
        json.dump(document, handle, sort_keys=True)


def serve(entry: Path, stack: str, key: bytes, target: Path, max_bytes: int) -> None:
    """Copy the plan of ``entry`` to the new directory ``target`` if it verifies; else
    remove what was copied and raise :class:`Unverified` (or :class:`OSError`)."""
    info = os.lstat(entry)
    if not stat.S_ISDIR(info.st_mode):
        raise Unverified(f"{entry.name} is not a directory")
    found = sorted(os.listdir(entry))
    if found != sorted([MANIFEST, stack]):
        raise Unverified(f"{entry.name} holds {found}, not a manifest and a plan of {stack}")
    expected = _read_manifest(entry / MANIFEST, stack, key)
    try:
        copied = copy_tree(entry / stack, target, max_bytes)
        if copied != expected:
            raise Unverified(f"{entry.name}: the files differ from the manifest")
    except BaseException:
        _remove_copy(target)
        raise


def copy_tree(source: Path, target: Path, max_bytes: int) -> dict[str, str]:
    """Copy ``source`` to the new directory ``target``: directories and regular files only,
    nothing followed, at most ``max_bytes`` and :data:`MAX_FILES`. Returns each file's
    SHA-256 by its path relative to ``source``."""
    if not stat.S_ISDIR(os.lstat(source).st_mode):
        raise Unverified(f"{source.name} is not a directory")
    target.mkdir(mode=0o700)
    files: dict[str, str] = {}
    budget = [max_bytes]

    def refuse(error: OSError) -> None:
        raise error

    for directory, names, file_names in os.walk(source, onerror=refuse):
        relative = Path(directory).relative_to(source)
        for name in sorted(names):  # a link to a directory is listed here, never walked
            if not stat.S_ISDIR(os.lstat(Path(directory, name)).st_mode):
                raise Unverified(f"{relative / name} is not a directory")
            (target / relative / name).mkdir(mode=0o700)
        for name in sorted(file_names):
            if len(files) >= MAX_FILES:
                raise Unverified(f"more than {MAX_FILES} files")
            path = (relative / name).as_posix()
            files[path] = _copy_file(Path(directory, name), target / relative / name, budget)
    return files


def _copy_file(source: Path, target: Path, budget: list[int]) -> str:
    try:
        descriptor = open_regular(source)
    except OSError as error:
        raise Unverified(f"{source.name}: {error.strerror}") from None
    digest = hashlib.sha256()
    with (
        os.fdopen(descriptor, "rb") as reading,
        os.fdopen(_create(target), "wb") as writing,
    ):
        while block := reading.read(_BLOCK):
            budget[0] -= len(block)
            if budget[0] < 0:
                raise Unverified("larger than the cache's size bound")
            digest.update(block)
            writing.write(block)
    return digest.hexdigest()


def _read_manifest(path: Path, stack: str, key: bytes) -> dict[str, str]:
    try:
        descriptor = open_regular(path)
    except OSError as error:
        raise Unverified(f"{path.name}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        data = read_at_most(handle.fileno(), MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise Unverified(f"{path.name} is larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        document = json.loads(data)
        files = document["files"]
        valid = (
            document["format"] == MANIFEST_FORMAT
            and document["stack"] == stack
            and isinstance(files, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
            and hmac.compare_digest(str(document["mac"]), _mac(key, stack, files))
        )
    except (ValueError, TypeError, KeyError, RecursionError):
        valid = False
    if not valid:
        raise Unverified(f"{path.name} is not signed with the cache's key")
    checked: dict[str, str] = files
    return checked


def _mac(key: bytes, stack: str, files: dict[str, str]) -> str:
    signed = json.dumps({"stack": stack, "files": files}, sort_keys=True).encode()
    return hmac.new(key, signed, hashlib.sha256).hexdigest()


def _create(path: Path) -> int:
    """A new file (never an existing one, never through a link), private."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)


def _remove_copy(target: Path) -> None:
    if target.exists() and not target.is_symlink():
        shutil.rmtree(target, ignore_errors=True)
