"""A re-plan with the release cache renders and checks only what changed, and is the
cold plan byte for byte; an entry that does not verify is refused and made again."""

from __future__ import annotations

import os
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.project_copy import copy_project, run_in_process, tree
from trainstack.plan.cache import CACHE_DIR_ENV, NO_CACHE_ENV
from trainstack.plan.render_cache import CHECKS, HEADER, RENDERS

pytestmark = pytest.mark.slow  # left out of `make test-fast`

STACK = "aiacc"  # eight releases of the chart: four experiments, one a matrix of five
CHANGED = "experiments/pytorch-ddp-mnist.yaml"  # one release


def _plan(root: Path, cache: Path, out: str, *options: str) -> dict[str, str | bytes]:
    outcome = run_in_process(
        ["plan", STACK, "-o", out, *options], root, {CACHE_DIR_ENV: str(cache)}
    )
    assert outcome.status == 0, outcome.stderr
    return tree(root / out / STACK)


def _entries(cache: Path, kind: str) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((cache / kind).iterdir())}


def _change_one_experiment(root: Path) -> None:
    path = root / CHANGED
    text = path.read_text()
    assert '"--epochs", "5"' in text
    path.write_text(text.replace('"--epochs", "5"', '"--epochs", "6"'))


@pytest.fixture(scope="module")
def warmed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str | bytes]]:
    """A project copy and a cache holding its releases' renders and checks, kept pristine
    in ``saved/``, with the project's cold plan: made once, each test works on a fresh copy
    put back at the same place (``live/``: where a project is is part of its digests)."""
    base = tmp_path_factory.mktemp("render-cache")
    root, cache = copy_project(base / "live" / "project"), base / "live" / "cache"
    _plan(root, cache, "warm")
    cold = _plan(root, cache, "cold", "--no-cache")
    shutil.rmtree(root / "cold")
    shutil.copytree(base / "live", base / "saved", symlinks=True)
    return base / "saved", base / "live", cold


@pytest.fixture
def warm(warmed: tuple[Path, Path, object]) -> tuple[Path, Path]:
    """The project and its warm cache, as the module's first plan left them."""
    saved, live, _ = warmed
    shutil.rmtree(live)
    shutil.copytree(saved, live, symlinks=True)
    return live / "project", live / "cache"


@pytest.fixture
def cold(warmed: tuple[Path, Path, dict[str, str | bytes]]) -> dict[str, str | bytes]:
    """The cold plan of the unchanged project (``--no-cache``)."""
    return warmed[2]


def test_a_replan_after_one_change_renders_one_release_and_equals_a_cold_plan(
    warm: tuple[Path, Path],
) -> None:
    root, cache = warm
    renders, checks = _entries(cache, RENDERS), _entries(cache, CHECKS)
    assert len(renders) == len(checks) == 8

    _change_one_experiment(root)
    cached = _plan(root, cache, "cached")
    cold = _plan(root, cache, "cold", "--no-cache")

    assert cached == cold
    assert b"--epochs" in b"".join(v for v in cached.values() if isinstance(v, bytes))
    # The three unchanged releases were served; the changed one rendered and checked anew.
    after_renders, after_checks = _entries(cache, RENDERS), _entries(cache, CHECKS)
    assert len(set(after_renders) - set(renders)) == 1
    assert len(set(after_checks) - set(checks)) == 1
    assert {name: after_renders[name] for name in renders} == renders


def test_without_the_cache_nothing_is_read_or_written(tmp_path: Path) -> None:
    root, cache = copy_project(tmp_path / "project"), tmp_path / "cache"
    _plan(root, cache, "off", "--no-cache")
    assert not cache.exists()
    outcome = run_in_process(
        ["plan", STACK, "-o", "env"], root, {CACHE_DIR_ENV: str(cache), NO_CACHE_ENV: "1"}
    )
    assert outcome.status == 0, outcome.stderr
    assert not cache.exists()


def _forge(path: Path) -> None:
    """The entry's content changed where a plan would show it; header and MAC kept."""
    data = path.read_bytes()
    assert data.startswith(HEADER)
    body_at = data.index(b"\n", len(HEADER)) + 1  # after the MAC's line
    text = zlib.decompress(data[body_at:])
    assert b'"image":' in text
    forged = text.replace(b'"image":', b'"image": "forged", "was":', 1)
    path.write_bytes(data[:body_at] + zlib.compress(forged, 1))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-10])


def _link(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.with_name("elsewhere"))


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


@pytest.mark.parametrize(
    "tamper",
    [_forge, _truncate, _link, _directory, _fifo],
    ids=["forged", "truncated", "link", "directory", "fifo"],
)
def test_an_entry_that_does_not_verify_is_refused_and_rendered_again(
    warm: tuple[Path, Path], cold: dict[str, str | bytes], tamper: Callable[[Path], object]
) -> None:
    root, cache = warm
    renders = _entries(cache, RENDERS)
    name = next(iter(renders))
    outside = cache / RENDERS / "elsewhere"
    outside.write_bytes(renders[name])  # what a link would point to: left alone
    tamper(cache / RENDERS / name)

    assert _plan(root, cache, "again") == cold
    assert b"forged" not in b"".join(
        v for v in tree(root / "again").values() if isinstance(v, bytes)
    )
    # Removed, then the release rendered and kept again: the entry verifies once more.
    assert (cache / RENDERS / name).is_file() and not (cache / RENDERS / name).is_symlink()
    assert (cache / RENDERS / name).read_bytes() == renders[name]
    assert outside.read_bytes() == renders[name]


def test_a_check_entry_that_does_not_verify_is_checked_again(warm: tuple[Path, Path]) -> None:
    root, cache = warm
    checks = _entries(cache, CHECKS)
    name = next(iter(checks))
    (cache / CHECKS / name).write_bytes(HEADER + b"0" * 64 + b"\n")  # a MAC not made with the key

    _plan(root, cache, "again")

    assert _entries(cache, CHECKS) == checks
