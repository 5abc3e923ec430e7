"""Each release's render and checks, kept by a digest of what they read: a re-plan after
one experiment changed renders and checks that experiment's release only.

Where: in the plan cache's directory (:mod:`trainstack.plan.cache`: same place, marker,
secret key, ``TRAINSTACK_NO_CACHE`` and ``--no-cache``). ``renders/<sha256>`` holds one
release's objects as Helm rendered them (packed as a plan's render worker hands them
back: JSON text, compressed, :func:`trainstack.chart.batch.pack`);
``checks/<sha256>`` records that one release's objects, masked as the plan masks
them, passed the plan's schema checks. What each digest covers, so that an entry is never
stale (:meth:`RenderCache.render_key`, :meth:`RenderCache.check_keys`):

- a render: Python, every installed distribution's name and version (the Helm SDK's
  among them: ``Chart.render`` of helm-python-sdk 0.2.2, ``helm_python/chart.py``, takes
  no Kubernetes version or API versions, so the SDK's release fixes those, and renders
  offline, ``lookup`` returning nothing), ``PULUMI_*``
  and ``TRAINSTACK_*`` variables and the running ``trainstack`` code, which validates the
  values and turns them into the chart's (``environment_digest`` of
  :mod:`trainstack.plan.cache_digests`), every file of the chart, the release's name,
  namespace and whole values;
- a check: its render's digest, the secret-digest key's fingerprint (masking depends on
  it), every file of the CRD directory the plan checks against and the schema file of
  each custom kind the stack's operators serve.

Trusted only once verified: an entry is one file, a header, an HMAC-SHA256 under the
cache's secret key of its name and content, and its content. It is read whole (only a
regular file, never through a link, at most :data:`MAX_ENTRY_BYTES`), checked, and only
then used: the plan uses the bytes it verified. An entry that does not verify (edited,
truncated, a link, a FIFO, a directory) is removed and the release rendered and checked
again. Entries are written to a temporary file and renamed into place; each directory
keeps at most :data:`MAX_ENTRIES` entries and :data:`MAX_BYTES` (least recently used go
first); names that are not 64 hexadecimal digits are never read.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from trainstack.chart.batch import RenderRequest
from trainstack.conformance import SchemaFiles
from trainstack.console.signals import on_stop
from trainstack.core.files import open_regular, read_at_most
from trainstack.plan.cache import (
    CacheUnavailable,
    PlanCache,
    discard,
    discard_stale,
    evict_oldest,
    refuse_links,
    write_new,
)
from trainstack.plan.cache_digests import (
    TreeTooLarge,
    environment_digest,
    key_fingerprint,
    tree_digest,
)
from trainstack.plan.charts import HELM_RELEASE, is_local_chart, release_request
from trainstack.plan.model import PlannedResource

RENDERS = "renders"
CHECKS = "checks"
HEADER = b"trainstack release cache 1\n"
MAX_ENTRY_BYTES = 16 << 20
"""One release's render (a render is some tens of KB)."""
MAX_ENTRIES = 8192
"""Entries of each directory: four versions of each of 2,048 releases, the most a stack
deploys (docs/limits.md)."""
MAX_BYTES = 512 * 1024 * 1024
_MAC_LENGTH = 64


class RenderCache:
    """Renders and checks of releases in the plan cache ``cache`` (module docstring)."""

    def __init__(self, cache: PlanCache) -> None:
        self._cache = cache
        self._root = cache.root
        self._environment: bytes | None = None
        self._trees: dict[str, bytes] = {}
        self._keys: dict[RenderRequest, str | None] = {}
        self._usable = not any(os.path.islink(self._root / name) for name in (RENDERS, CHECKS))

    def render_key(self, request: RenderRequest) -> str | None:
        """The digest ``request``'s render is kept by (``None``: the cache is not usable)."""
        if request not in self._keys:
            self._keys[request] = self._render_key(request)
        return self._keys[request]

    def _render_key(self, request: RenderRequest) -> str | None:
        environment = self._environment_digest()
        if environment is None:
            return None
        digest = hashlib.sha256(b"render\n" + environment)
        chart = self._tree(request.chart_dir, "chart")
        if chart is None:
            return None
        digest.update(chart)
        for part in (request.release, request.namespace, request.values_json):
            digest.update(f"{len(part)}:{part}\n".encode())
        return digest.hexdigest()

    def check_keys(
        self,
        project_root: Path,
        resources: Iterable[PlannedResource],
        digest_key: bytes | None,
        crd_dir: Path | None,
        schemas: SchemaFiles,
    ) -> dict[str, str | None]:
        """The digest the checks of each local-chart release's objects are kept by, by URN."""
        crds = b"none" if crd_dir is None else self._tree(str(crd_dir), "crds")
        fingerprint = key_fingerprint(digest_key)
        listed = json.dumps(sorted([*kind, file] for kind, file in schemas.items()))
        context = f"{fingerprint}\n{listed}\n".encode() + (crds or b"")
        keys: dict[str, str | None] = {}
        for release in resources:
            if release.type == HELM_RELEASE and is_local_chart(release):
                render = self.render_key(release_request(project_root, release))
                keys[release.urn] = (
                    hashlib.sha256(f"checks\n{render}\n".encode() + context).hexdigest()
                    if render is not None and crds is not None
                    else None
                )
        return keys

    def has(self, request: RenderRequest) -> bool:
        """Whether the cache lists ``request``'s render (it is verified when read)."""
        key = self.render_key(request)
        return key is not None and self._usable and os.path.lexists(self._root / RENDERS / key)

    def renders(self, requests: Iterable[RenderRequest]) -> dict[RenderRequest, bytes]:
        """The requests' renders the cache has, verified (packed, as a worker hands them
        back: :func:`trainstack.chart.batch.pack`)."""
        found = {}
        for request in requests:
            key = self.render_key(request)
            data = self._read(RENDERS, key) if key else None
            if data is not None:
                found[request] = data
        return found

    def keep_renders(self, renders: dict[RenderRequest, bytes | None]) -> None:
        """Keep each successful render (best effort: a failure only means rendering again)."""
        for request, packed in renders.items():
            key = self.render_key(request)
            if packed is not None and key is not None:
                self._write(RENDERS, key, packed)

    def passed(self, key: str | None) -> bool:
        """Whether the checks of ``key`` are known to have passed."""
        return key is not None and self._read(CHECKS, key) == b""

    def keep_passed(self, keys: Iterable[str | None]) -> None:
        """Record that the checks of ``keys`` passed; then prune both directories."""
        for key in keys:
            if key is not None:
                self._write(CHECKS, key, b"")
        if self._usable:
            for name in (RENDERS, CHECKS):
                prune(self._root / name)

    def _environment_digest(self) -> bytes | None:
        if self._environment is None and self._usable:
            try:
                self._environment = environment_digest()
            except TreeTooLarge:
                self._usable = False
        return self._environment if self._usable else None

    def _tree(self, path: str, label: str) -> bytes | None:
        if path not in self._trees:
            try:
                self._trees[path] = tree_digest(Path(path), label)
            except TreeTooLarge:
                self._usable = False
        return self._trees.get(path) if self._usable else None

    def _mac(self, kind: str, name: str, data: bytes) -> bytes:
        signed = f"{kind} {name}\n".encode() + data
        return hmac.new(self._cache.secret_key(), signed, hashlib.sha256).hexdigest().encode()

    def _read(self, kind: str, name: str) -> bytes | None:
        path = self._root / kind / name
        if not self._usable or not os.path.lexists(path):
            return None
        try:
            with os.fdopen(open_regular(path), "rb") as handle:
                data = read_at_most(handle.fileno(), MAX_ENTRY_BYTES + 1)
            mac_end = len(HEADER) + _MAC_LENGTH
            body = data[mac_end + 1 :]
            if (
                len(data) <= MAX_ENTRY_BYTES
                and data.startswith(HEADER)
                and data[mac_end : mac_end + 1] == b"\n"
                and hmac.compare_digest(data[len(HEADER) : mac_end], self._mac(kind, name, body))
            ):
                with contextlib.suppress(OSError):
                    os.utime(path, follow_symlinks=False)  # recently used: pruned last
                return body
        except (OSError, CacheUnavailable):
            pass
        discard(path)
        return None

    def _write(self, kind: str, name: str, data: bytes) -> None:
        if not self._usable:
            return
        directory = self._root / kind
        staging = directory / f".new-{os.getpid()}-{secrets.token_hex(6)}"

        def remove_staging() -> None:
            with contextlib.suppress(OSError):
                os.unlink(staging)

        # A stop while writing leaves no staging file behind: the unwinding removes it, or
        # the signal guard does if it has to end the process first.
        try:
            with on_stop(remove_staging):
                self._cache.create()
                directory.mkdir(exist_ok=True, mode=0o700)
                refuse_links(directory)
                write_new(staging, HEADER + self._mac(kind, name, data) + b"\n" + data, 0o600)
                # One rename: a reader sees the whole entry or none (never a directory
                # replaced).
                os.rename(staging, directory / name)
        except (OSError, CacheUnavailable):
            self._usable = False  # not kept: the next plan renders again
            remove_staging()
        except BaseException:
            remove_staging()
            raise


def prune(directory: Path) -> None:
    """Remove the least recently used entries beyond the bounds, and stale leftovers."""
    entries = []
    with contextlib.suppress(OSError), os.scandir(directory) as listing:
        for entry in listing:
            with contextlib.suppress(OSError):
                if len(entry.name) == _MAC_LENGTH and entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    entries.append((info.st_mtime, info.st_size, Path(entry.path)))
    evict_oldest(entries, MAX_ENTRIES, MAX_BYTES)
    discard_stale(directory)
