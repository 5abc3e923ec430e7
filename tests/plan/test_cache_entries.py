"""A cache entry is served only when every byte matches its signed manifest; nothing in the
cache is followed, and nothing special (FIFO, device) is ever opened."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from trainstack.plan.cache import KEY_FILE, CacheUnavailable, PlanCache
from trainstack.plan.cache_entries import MANIFEST

DIGEST = "ab" * 32
STACK = "s"


def _plan(root: Path) -> Path:
    plan = root / "made" / STACK
    (plan / "resources").mkdir(parents=True)
    (plan / "resources.json").write_text('[{"name": "pool", "desiredSize": 4}]\n')
    (plan / "resources" / "pool.yaml").write_text("desiredSize: 4\n")
    return plan


@pytest.fixture()
def cache(tmp_path: Path) -> PlanCache:
    """A cache holding one entry, :data:`DIGEST`, of a small plan."""
    cache = PlanCache.open(tmp_path / "cache")
    cache.secret_key()
    cache.put_all([(DIGEST, STACK, _plan(tmp_path))])
    return cache


def _entry(cache: PlanCache) -> Path:
    return cache.root / "plans" / DIGEST


def _served(cache: PlanCache, tmp_path: Path) -> bool:
    """``cache.get`` in a thread: a read that blocks (a FIFO opened) fails the test."""
    result: list[bool] = []
    reader = threading.Thread(
        target=lambda: result.append(cache.get(DIGEST, STACK, tmp_path / "served")), daemon=True
    )
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive(), "the cache read blocked"
    return result[0]


def test_an_intact_entry_is_served_as_stored(cache: PlanCache, tmp_path: Path) -> None:
    assert _served(cache, tmp_path)
    served = tmp_path / "served"
    assert (served / "resources" / "pool.yaml").read_text() == "desiredSize: 4\n"
    assert sorted(p.name for p in served.rglob("*")) == ["pool.yaml", "resources", "resources.json"]


def _edit(path: str, text: str) -> Callable[[Path], None]:
    return lambda entry: (entry / path).write_text(text)


def _replace_by_fifo(path: str) -> Callable[[Path], None]:
    def edit(entry: Path) -> None:
        (entry / path).unlink()
        os.mkfifo(entry / path)

    return edit


def _resign_without_the_key(entry: Path) -> None:
    """Edit a file and recompute its digest in the manifest (the MAC cannot be)."""
    (entry / STACK / "resources" / "pool.yaml").write_text("desiredSize: 999\n")
    manifest = json.loads((entry / MANIFEST).read_text())
    manifest["files"]["resources/pool.yaml"] = hashlib.sha256(b"desiredSize: 999\n").hexdigest()
    (entry / MANIFEST).write_text(json.dumps(manifest))


OUTSIDE = "desiredSize: 999 (a file outside the cache)\n"

CORRUPTIONS: dict[str, Callable[[Path], None]] = {
    "a-value-edited": _edit(f"{STACK}/resources/pool.yaml", "desiredSize: 999\n"),
    "a-file-truncated": _edit(f"{STACK}/resources.json", ""),
    "a-file-added": _edit(f"{STACK}/resources/extra.yaml", "desiredSize: 999\n"),
    "a-foreign-file-beside-the-plan": _edit("notes.txt", "hello\n"),
    "the-manifest-resigned-without-the-key": _resign_without_the_key,
    "the-manifest-not-json": _edit(MANIFEST, "{"),
    "a-fifo-as-a-plan-file": _replace_by_fifo(f"{STACK}/resources.json"),
    "a-fifo-as-the-manifest": _replace_by_fifo(MANIFEST),
}


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupted_entry_is_never_served_and_is_removed(
    cache: PlanCache, tmp_path: Path, corrupt: Callable[[Path], None]
) -> None:
    corrupt(_entry(cache))
    assert not _served(cache, tmp_path)
    assert not (tmp_path / "served").exists()  # nothing half-copied is left for the diff
    assert not os.path.lexists(_entry(cache))  # made again by the next diff


def _link_file(entry: Path, outside: Path) -> None:
    (entry / STACK / "resources" / "pool.yaml").unlink()
    (entry / STACK / "resources" / "pool.yaml").symlink_to(outside / "pool.yaml")


def _link_directory(entry: Path, outside: Path) -> None:
    shutil.rmtree(entry / STACK / "resources")
    (entry / STACK / "resources").symlink_to(outside, target_is_directory=True)


@pytest.mark.parametrize("link", [_link_file, _link_directory], ids=["file", "directory"])
def test_a_link_inside_an_entry_is_never_followed(
    cache: PlanCache, tmp_path: Path, link: Callable[[Path, Path], None]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pool.yaml").write_text(OUTSIDE)
    link(_entry(cache), outside)
    assert not _served(cache, tmp_path)
    assert not (tmp_path / "served").exists()
    assert (outside / "pool.yaml").read_text() == OUTSIDE  # the link's target is untouched


def test_an_entry_that_is_a_link_is_removed_not_its_target(
    cache: PlanCache, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    os.rename(_entry(cache), outside)
    _entry(cache).symlink_to(outside, target_is_directory=True)
    assert not _served(cache, tmp_path)
    assert not os.path.lexists(_entry(cache))
    assert (outside / STACK / "resources.json").is_file()


def test_a_plan_holding_a_link_is_not_stored(tmp_path: Path) -> None:
    """A revision's own code writes its plan: whatever it put there is not cached."""
    plan = _plan(tmp_path)
    (plan / "resources" / "link.yaml").symlink_to("/etc/hostname")
    cache = PlanCache.open(tmp_path / "cache")
    cache.secret_key()
    cache.put_all([(DIGEST, STACK, plan)])
    assert not os.path.lexists(_entry(cache))
    assert list((cache.root / "plans").iterdir()) == []  # no staging left either


def test_a_key_file_that_is_a_fifo_is_refused_without_blocking(
    cache: PlanCache, tmp_path: Path
) -> None:
    (cache.root / KEY_FILE).unlink()
    os.mkfifo(cache.root / KEY_FILE)
    # Refused on opening: the diff then plans without the cache (not an error mid-diff).
    with pytest.raises(CacheUnavailable, match="unusable secret-digest key"):
        PlanCache.open(cache.root)
