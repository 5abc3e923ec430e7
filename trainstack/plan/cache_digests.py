"""The digest a cached plan is kept by: of everything it reads, so that it is never stale.

Any byte that could change a plan changes the digest (:func:`side_digest`,
:func:`plan_digest`):

- every file of the side's project tree (the working tree, or the revision's checkout)
  and of its stack directory (``stackConfigDir``, wherever it is): stack files, the data
  stacks they read, experiments (always inside the project), the chart, the
  operators' overlays, ``__main__.py``, ``components/`` and the checkout's own
  ``trainstack/`` code; symbolic links are followed (cycles cut). Left out: ``.git``,
  ``build``, ``.venv``, ``node_modules`` and tool caches, which no plan reads;
- the code of the ``trainstack`` package that runs, wherever it is installed;
- the Python version and every installed distribution's name and version;
- ``PULUMI_*`` and ``TRAINSTACK_*`` environment variables, the files of
  ``$TRAINSTACK_CRD_DIR``, and a fingerprint of the secret-digest key;
- the stack's name.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import metadata
from pathlib import Path

from trainstack.core.file_names import check_stack_name

FORMAT = b"trainstack plan cache 1\n"

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
_SECRET_KEY_ENV = "TRAINSTACK_SECRET_DIGEST_KEY"


def _hash_tree(digest: hashlib._Hash, root: Path, label: str) -> None:
    """Every regular file under ``root`` (links followed, cycles cut), path and content."""
    digest.update(f"tree {label}\n".encode())
    seen: set[tuple[int, int]] = set()
    for directory, names, files in os.walk(root, followlinks=True):
        info = os.stat(directory)
        if (info.st_dev, info.st_ino) in seen:
            names[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        names[:] = sorted(
            name for name in names if name not in _SKIPPED_DIRS and not name.endswith(".egg-info")
        )
        relative = os.path.relpath(directory, root)
        for name in sorted(files):
            path = os.path.join(directory, name)
            digest.update(f"file {relative}/{name}\n".encode())
            try:
                with open(path, "rb") as handle:
                    while block := handle.read(1 << 20):
                        digest.update(block)
            except OSError as error:
                # A file a plan could not read either (a dangling link...): its state counts.
                digest.update(f"unreadable {error.errno}\n".encode())


def environment_digest() -> bytes:
    """What every side shares: Python, installed distributions, environment, CRDs, code."""
    digest = hashlib.sha256(FORMAT)
    digest.update(sys.version.encode())
    versions = sorted(
        f"{dist.metadata['Name']}=={dist.version}"
        for dist in metadata.distributions()
        if dist.metadata["Name"]
    )
    digest.update("\n".join(versions).encode())
    for name in sorted(os.environ):
        if name.startswith(_ENV_PREFIXES) and name != _SECRET_KEY_ENV:
            digest.update(f"env {name}={os.environ[name]}\n".encode())
    crd_dir = os.environ.get("TRAINSTACK_CRD_DIR")
    if crd_dir and Path(crd_dir).is_dir():
        _hash_tree(digest, Path(crd_dir), "crds")
    import trainstack

    _hash_tree(digest, Path(trainstack.__file__).resolve().parent, "trainstack")
    return digest.digest()


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
    fingerprint = hashlib.sha256(b"key " + digest_key).hexdigest() if digest_key else "none"
    digest.update(f"secret-digest key {fingerprint}\n".encode())
    return digest.hexdigest()
