"""Plans kept by a digest of everything they read, so that ``trainstack diff`` plans a side once.

Where: ``build/cache/`` of the project (git-ignored, like ``build/plan``), or
``$TRAINSTACK_CACHE_DIR``; ``TRAINSTACK_NO_CACHE=1`` (or ``trainstack diff --no-cache``)
turns it off. Layout: ``plans/<sha256>/`` (an entry: ``<stack>/``, a plan directory as
``trainstack plan`` writes it, and ``manifest.json``, its files' digests signed with the
key below), ``secret-digest.key`` (below), the marker ``.trainstack-cache`` and a
``.gitignore`` of ``*`` (git never lists the cache, wherever it is).

Trusted only once verified (:mod:`trainstack.plan.cache_entries`): an entry is served by
copying it into the diff's scratch directory, each file hashed on the way and checked
against the signed manifest; a symbolic link, FIFO, device or foreign file in it, or any
byte changed, and the entry is removed and the plan made again. Nothing in the cache is
followed or opened unless it is a regular file (the key file too). Names under
``plans/`` that are not entries are never read.

What the digest covers, so that a cached plan can never be stale:
:mod:`trainstack.plan.cache_digests`.

A plan's secret digests are keyed (HMAC): two plans compare masked values only when made
with one key. A diff that uses the cache makes every plan with the cache's own random
key, ``secret-digest.key`` (mode 0600, never printed), so that a cached side and a fresh
side compare; the digests it makes are of values that are in the repository anyway
(``secure:`` ciphertexts, chart values). Removing the cache directory forgets the key.

Safe by construction: entries are written into a temporary directory and renamed into
place (a reader sees a whole plan or none; two diffs at once both succeed), the cache
holds at most :data:`MAX_ENTRIES` plans and :data:`MAX_BYTES` (least recently used go
first), and nothing outside it is ever written or removed: a directory that exists
without the marker, or any symbolic link in the way, is refused (the diff then plans
without the cache and says so).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from trainstack.core.files import open_regular
from trainstack.plan.cache_entries import Unverified, serve, store

CACHE_DIR_ENV = "TRAINSTACK_CACHE_DIR"
NO_CACHE_ENV = "TRAINSTACK_NO_CACHE"
DEFAULT_CACHE = Path("build") / "cache"
MARKER = ".trainstack-cache"
MARKER_TEXT = "A cache of trainstack plans: safe to remove whole.\n"
KEY_FILE = "secret-digest.key"
PLANS = "plans"
MAX_ENTRIES = 64
MAX_BYTES = 512 * 1024 * 1024

_HEX64 = re.compile(r"[0-9a-f]{64}")
"""An entry's name (a sha256 digest) and the secret key as :meth:`PlanCache.put_all`
writes it (32 random bytes): 64 hexadecimal digits each."""


class CacheUnavailable(Exception):
    """The cache directory cannot be used (not ours, a symbolic link, unwritable)."""


class PlanCache:
    """The cache at ``root`` (see the module docstring).

    Opening and looking up only read: the directory, its marker and its key are written
    with the first plans stored (:meth:`put_all`), after every plan of a diff succeeded,
    so that a diff that fails leaves no trace.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._key: bytes | None = None
        self._key_is_new = False

    @classmethod
    def open(cls, root: Path) -> PlanCache:
        """The cache at ``root``; :class:`CacheUnavailable` when the directory is not ours."""
        try:
            refuse_links(root)
            refuse_links(root / PLANS)
            refuse_links(root / KEY_FILE)
            if root.exists():
                if not root.is_dir():
                    raise CacheUnavailable(f"{root} is not a directory")
                if not (root / MARKER).is_file() and any(root.iterdir()):
                    raise CacheUnavailable(f"{root} exists and is not a trainstack cache")
        except OSError as error:
            raise CacheUnavailable(f"{root}: {error.strerror or error}") from None
        cache = cls(root)
        cache.secret_key()  # unusable (a FIFO, not hex): the cache is, now, not mid-diff
        return cache

    def secret_key(self) -> bytes:
        """The cache's secret-digest key (a new one, kept with the first plans stored)."""
        if self._key is not None:
            return self._key
        path = self.root / KEY_FILE
        try:
            if os.path.lexists(path):
                with os.fdopen(open_regular(path), "rb") as handle:
                    text = handle.read(256).decode("ascii").strip()
                if not _HEX64.fullmatch(text):
                    raise ValueError("not 64 hexadecimal digits")
                self._key = bytes.fromhex(text)
            else:
                self._key, self._key_is_new = secrets.token_bytes(32), True
        except (OSError, ValueError) as error:
            raise CacheUnavailable(f"{path}: unusable secret-digest key ({error})") from None
        return self._key

    def get(self, digest: str, stack: str, target: Path) -> bool:
        """Copy the cached plan of ``stack`` for ``digest`` to the new directory ``target``
        if the cache has it and it verifies (:mod:`trainstack.plan.cache_entries`); an
        entry that does not verify is removed, to be planned again."""
        entry = self._entry(digest)
        if not os.path.lexists(entry):
            return False
        try:
            serve(entry, stack, self.secret_key(), target, MAX_BYTES)
        except (Unverified, OSError):
            discard(entry)
            return False
        with contextlib.suppress(OSError):
            os.utime(entry, follow_symlinks=False)  # recently used: pruned last
        return True

    def put_all(self, plans: Iterable[tuple[str, str, Path]]) -> None:
        """Keep a copy of each ``(digest, stack, plan directory)``; then prune.

        Best effort: a cache that cannot be written only means the next diff plans again.
        """
        try:
            self.create()
        except (OSError, CacheUnavailable):
            return
        for digest, stack, plan_dir in plans:
            self._put(digest, stack, plan_dir)
        self.prune()

    def create(self) -> None:
        """Make the directory, its marker and its key where they are not yet, before the
        first entry is written (:class:`CacheUnavailable` or :class:`OSError` if it cannot)."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        refuse_links(self.root)
        for name, text, mode in (
            (MARKER, MARKER_TEXT.encode(), 0o644),
            # Never listed by `git status`, even where build/ is not ignored (pytest does
            # the same for its cache).
            (".gitignore", b"*\n", 0o644),
        ):
            if not (self.root / name).exists():
                with contextlib.suppress(FileExistsError):
                    write_new(self.root / name, text, mode)
        (self.root / PLANS).mkdir(exist_ok=True, mode=0o700)
        refuse_links(self.root / PLANS)
        if self._key_is_new and self._key is not None:
            try:
                write_new(self.root / KEY_FILE, self._key.hex().encode(), 0o600)
            except FileExistsError:
                # Another diff made the key meanwhile: entries keyed with ours would never
                # be found again, so none is stored.
                raise CacheUnavailable("the secret-digest key changed meanwhile") from None
            self._key_is_new = False

    def _put(self, digest: str, stack: str, plan_dir: Path) -> None:
        entry = self._entry(digest)
        if os.path.lexists(entry):
            return
        staging = self.root / PLANS / f".new-{os.getpid()}-{secrets.token_hex(6)}"
        try:
            store(plan_dir, staging, stack, self.secret_key(), MAX_BYTES)
            # One rename: a reader sees the whole plan or nothing. Made meanwhile by another
            # diff: the rename fails and that one is kept.
            with contextlib.suppress(OSError):
                os.rename(staging, entry)
        except (OSError, Unverified):
            pass  # not cached: the next diff plans it again
        finally:
            if os.path.isdir(staging) and not os.path.islink(staging):
                shutil.rmtree(staging, ignore_errors=True)

    def prune(self) -> None:
        """Remove the least recently used entries beyond the bounds, and stale leftovers."""
        plans = self.root / PLANS
        entries = []
        for path in _entries(plans):
            with contextlib.suppress(OSError):
                entries.append((path.stat().st_mtime, _size(path), path))
        evict_oldest(entries, MAX_ENTRIES, MAX_BYTES)
        discard_stale(plans)

    def _entry(self, digest: str) -> Path:
        if _HEX64.fullmatch(digest) is None:
            raise ValueError(f"not a cache digest: {digest!r}")
        return self.root / PLANS / digest


def wanted_cache(project_root: Path, wanted: bool) -> PlanCache | None:
    """The cache, unless turned off (``--no-cache``, ``TRAINSTACK_NO_CACHE``) or unusable
    (then a note on stderr says why)."""
    if not wanted or os.environ.get(NO_CACHE_ENV):
        return None
    try:
        return cache_for(project_root)
    except CacheUnavailable as reason:
        print(f"note: plan cache not used: {reason}", file=sys.stderr)
        return None


def cache_for(project_root: Path) -> PlanCache:
    """The cache the environment asks for (:class:`CacheUnavailable` when it cannot be used)."""
    configured = os.environ.get(CACHE_DIR_ENV)
    root = Path(configured) if configured else project_root / DEFAULT_CACHE
    return PlanCache.open(root if root.is_absolute() else Path.cwd() / root)


def _entries(plans: Path) -> Iterator[Path]:
    if not plans.is_dir():
        return
    for path in plans.iterdir():
        if _HEX64.fullmatch(path.name) and path.is_dir() and not path.is_symlink():
            yield path


def _size(path: Path) -> int:
    """Bytes of the regular files under ``path`` (links not followed)."""
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(directory, name)).st_size
    return total


def evict_oldest(entries: list[tuple[float, int, Path]], most: int, most_bytes: int) -> None:
    """Discard the least recently used of ``entries`` (modified, bytes, path) beyond ``most``
    of them or ``most_bytes`` in all."""
    total = 0
    for index, (_, size, path) in enumerate(sorted(entries, reverse=True)):
        total += size
        if index >= most or total > most_bytes:
            discard(path)


def discard_stale(directory: Path) -> None:
    """Discard what a writer stopped half-way left in ``directory``: its staging names
    (``.new-*``) last changed more than an hour ago."""
    hour_ago = time.time() - 3600
    with contextlib.suppress(OSError), os.scandir(directory) as listing:
        for entry in listing:
            if entry.name.startswith(".new-"):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_mtime < hour_ago:
                        discard(Path(entry.path))


def discard(path: Path) -> None:
    """Remove what is at ``path``: a file or a link itself (never what it points to), a
    directory with all it holds."""
    with contextlib.suppress(OSError):
        if os.path.islink(path) or not os.path.isdir(path):
            os.unlink(path)
        else:
            shutil.rmtree(path, ignore_errors=True)


def refuse_links(path: Path) -> None:
    """:class:`CacheUnavailable` if ``path`` is a symbolic link."""
    # Only the cache's own levels: the project may well live under a linked directory.
    if path.is_symlink():
        raise CacheUnavailable(f"{path} is a symbolic link: the cache never follows one")


def write_new(path: Path, data: bytes, mode: int) -> None:
    """``data`` as the new file ``path`` (never through a link, never over a file)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
