"""The digest a cached plan is kept by: of everything it reads, so that it is never stale.

Any byte that could change a plan changes the digest (:func:`side_digest`,
:func:`plan_digest`):

- every file of the side's project tree (the working tree, or the revision's checkout)
  and of its stack directory (``stackConfigDir``, wherever it is): stack files, the data
  stacks they read, experiments (always inside the project), the chart, the
  operators' overlays, ``__main__.py``, ``components/`` and the checkout's own
  ``trainstack/`` code. A link to a file is read through; a link to a directory is
  walked only when it stays inside the tree (cycles cut); only regular files are ever
  opened (a FIFO or ``/dev/zero`` counts by its type). Left out: ``.git``, ``build``,
  ``.venv``, ``node_modules`` and tool caches, which no plan reads. Bounded: a tree over
  :data:`MAX_HASHED_FILES` files or :data:`MAX_HASHED_BYTES` is not hashed to the end
  (:class:`TreeTooLarge`) and its side is planned without the cache;
- the code of the ``trainstack`` package that runs, wherever it is installed;
- the Python version and every installed distribution's name and version (the names
  of their metadata directories, :func:`installed_distributions`);
- ``PULUMI_*`` and ``TRAINSTACK_*`` environment variables, the files of
  ``$TRAINSTACK_CRD_DIR``, and a fingerprint of the secret-digest key;
- the stack's name.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from trainstack.core.file_names import check_stack_name
from trainstack.core.files import open_regular

FORMAT = b"trainstack plan cache 2\n"

# Directories no plan reads (and that can be large): never hashed.
_SKIPPED_DIRS = frozenset(
    {
        ".git",
        "build",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        "dist",
    }
)
_ENV_PREFIXES = ("PULUMI_", "TRAINSTACK_")
MAX_HASHED_FILES = 200_000
"""Files hashed for one tree (a side's project, the CRD directory, the running code)."""
MAX_HASHED_BYTES = 1 << 30
"""Bytes hashed for one tree: 1 GiB, some seconds of SHA-256 (the project is some MB)."""
_SECRET_KEY_ENV = "TRAINSTACK_SECRET_DIGEST_KEY"


class TreeTooLarge(Exception):
    """A tree over :data:`MAX_HASHED_FILES` or :data:`MAX_HASHED_BYTES`: its side is planned
    without the cache (hashing it would take longer than planning)."""


def _hash_tree(digest: hashlib._Hash, root: Path, label: str) -> None:
    """Every regular file under ``root``, path and content; bounded (:class:`TreeTooLarge`).

    A link to a file is read through (the plan reads through it too), a link to a
    directory is walked only when it stays inside ``root`` (never ``/`` or a home
    directory), cycles are cut, and only regular files are opened: a FIFO, a device
    (``/dev/zero``) or a socket counts by its type, never read (it could block for ever).
    """
    digest.update(f"tree {label}\n".encode())
    budget = _Budget()
    inside = os.path.realpath(root)
    seen: set[tuple[int, int]] = set()
    pending = [""]
    while pending:
        relative = pending.pop()
        directory = os.path.join(root, relative)
        try:
            info = os.stat(directory)
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name, reverse=True)
        except OSError as error:
            digest.update(f"unreadable {relative} {error.errno}\n".encode())
            continue
        if (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        for entry in entries:
            name = os.path.join(relative, entry.name)
            if _is_directory(entry):
                if entry.name in _SKIPPED_DIRS or entry.name.endswith(".egg-info"):
                    continue
                if entry.is_symlink() and not _within(entry.path, inside):
                    digest.update(f"outside link {name} {os.readlink(entry.path)}\n".encode())
                    continue
                pending.append(name)
            else:
                _hash_file(digest, entry.path, name, budget)


def _is_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _within(path: str, inside: str) -> bool:
    real = os.path.realpath(path)
    return real == inside or real.startswith(inside + os.sep)


class _Budget:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def spend(self, size: int) -> None:
        self.bytes += size
        if self.bytes > MAX_HASHED_BYTES:
            raise TreeTooLarge(f"more than {MAX_HASHED_BYTES} bytes")


def _hash_file(digest: hashlib._Hash, path: str, name: str, budget: _Budget) -> None:
    digest.update(f"file {name}\n".encode())
    budget.files += 1
    if budget.files > MAX_HASHED_FILES:
        raise TreeTooLarge(f"more than {MAX_HASHED_FILES} files")
    try:
        with os.fdopen(open_regular(path, follow_links=True), "rb") as handle:
            while block := handle.read(1 << 20):
                budget.spend(len(block))
                digest.update(block)
    except OSError as error:
        # A file a plan could not read either (a dangling link, a FIFO): its state counts.
        digest.update(f"unreadable {error.errno}\n".encode())


def environment_digest() -> bytes:
    """What every side shares: Python, installed distributions, environment, CRDs, code."""
    digest = hashlib.sha256(FORMAT)
    digest.update(sys.version.encode())
    digest.update("\n".join(installed_distributions()).encode())
    for name in sorted(os.environ):
        if name.startswith(_ENV_PREFIXES) and name != _SECRET_KEY_ENV:
            digest.update(f"env {name}={os.environ[name]}\n".encode())
    crd_dir = os.environ.get("TRAINSTACK_CRD_DIR")
    if crd_dir and Path(crd_dir).is_dir():
        _hash_tree(digest, Path(crd_dir), "crds")
    import trainstack

    _hash_tree(digest, Path(trainstack.__file__).resolve().parent, "trainstack")
    return digest.digest()


def installed_distributions() -> list[str]:
    """Every installed distribution's metadata directory, by name, along ``sys.path``.

    Its name is the distribution's name and version: "This directory is named as
    {name}-{version}.dist-info" (PyPA, Recording installed projects,
    packaging.python.org/specifications/recording-installed-packages; ``.egg-info`` for
    older installers). Listing the directories takes milliseconds where
    ``importlib.metadata`` parses every distribution's ``METADATA`` (about 0.2 s for the
    hundred of the project's environment, which every plan using the cache would pay).
    """
    found = []
    for entry in sys.path:
        try:
            with os.scandir(entry or os.curdir) as listing:
                found += [
                    f"{entry}: {item.name}"
                    for item in listing
                    if item.name.endswith((".dist-info", ".egg-info"))
                ]
        except OSError:
            continue  # a sys.path entry that is not a directory (a zip file, gone)
    return sorted(found)


def side_digest(environment: bytes, project_root: Path, stack_dir: Path | None = None) -> bytes:
    """The digest of one side: the shared part, the side's project tree and its stack files
    (``stack_dir``, hashed too when ``Pulumi.yaml`` puts them outside the project)."""
    digest = hashlib.sha256(environment)
    _hash_tree(digest, project_root, "project")
    if stack_dir is not None and not stack_dir.resolve().is_relative_to(project_root.resolve()):
        _hash_tree(digest, stack_dir, "stacks")
    return digest.digest()


def plan_digest(side: bytes, stack: str, digest_key: bytes | None) -> str:
    """The cache entry of ``stack`` planned on that side with ``digest_key``."""
    check_stack_name(stack)
    digest = hashlib.sha256(side)
    digest.update(f"stack {stack}\n".encode())
    digest.update(f"secret-digest key {key_fingerprint(digest_key)}\n".encode())
    return digest.hexdigest()


def key_fingerprint(digest_key: bytes | None) -> str:
    """What a digest may say of the secret-digest key (it masks values: what a plan shows
    depends on it): a hash of it, never the key."""
    return hashlib.sha256(b"key " + digest_key).hexdigest() if digest_key else "none"


def tree_digest(root: Path, label: str) -> bytes:
    """The digest of every file under ``root`` (as :func:`side_digest` hashes a tree)."""
    digest = hashlib.sha256(FORMAT)
    _hash_tree(digest, root, label)
    return digest.digest()
