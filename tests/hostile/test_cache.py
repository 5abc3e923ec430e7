"""A hostile plan cache: ``diff`` shows only what its inputs hold, and never hangs.

The cache of a real ``diff aiacc baseline`` is corrupted in each way below (every entry
at once); the next ``diff`` must print exactly what the first printed, re-planning the
entries it cannot verify. That ``diff`` is a process of its own where a regression would
hang or exhaust it (a FIFO read, ``/dev/zero`` read whole); the other corruptions, and the
``diff`` runs that fill or read a cache without them, run the console's ``main()`` in this
process (the same plans, 2-4 s of CPU less each). Both compute the same digests (every
``TRAINSTACK_*`` variable, the code, the inputs), so each reads what the other stored.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.project_copy import Outcome, copy_project, run_in_process, run_subprocess
from trainstack.plan.cache import CACHE_DIR_ENV, KEY_FILE

pytestmark = [
    pytest.mark.slow,  # left out of `make test-fast`
    # Commands run in this process: nothing else a process would print on its stderr.
    pytest.mark.usefixtures("stderr_as_a_process_has_it"),
]


def _diff(root: Path, cache: Path, *, process: bool = False) -> Outcome:
    """``diff aiacc baseline`` on ``cache``: in this process, or (``process``) its own."""
    run = run_subprocess if process else run_in_process
    return run(["diff", "aiacc", "baseline"], root, {CACHE_DIR_ENV: str(cache)})


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A project, a cache holding both sides' plans, and the diff's output.

    The cache's place is part of the plans' digest (every ``TRAINSTACK_*`` variable is):
    each case restores the cache there from the copy ``<cache>.pristine``.
    """
    root = copy_project(tmp_path_factory.mktemp("project"))
    cache = tmp_path_factory.mktemp("cache") / "cache"
    first = _diff(root, cache)
    assert first.status == 1, first.stderr
    assert len(os.listdir(cache / "plans")) == 2
    shutil.copytree(cache, cache.with_suffix(".pristine"), symlinks=True)
    return root, cache, first.stdout


def _forged(text: str) -> str:
    """The plan with a node pool's size no input holds (resources.json, what diff reads)."""
    forged = text.replace('"desiredSize": "4"', '"desiredSize": "999"', 1)
    assert forged != text
    return forged


def _forge_a_value(entry: Path, outside: Path) -> None:
    for path in entry.rglob("resources.json"):
        path.write_text(_forged(path.read_text()))


def _link_out(entry: Path, outside: Path) -> None:
    for path in entry.rglob("resources.json"):
        forged = outside / f"{entry.name}.json"
        forged.write_text(_forged(path.read_text()))
        path.unlink()
        path.symlink_to(forged)


def _fifo(entry: Path, outside: Path) -> None:
    for path in entry.rglob("resources.json"):
        path.unlink()
        os.mkfifo(path)


def _entry_to_dev_zero(entry: Path, outside: Path) -> None:
    for path in entry.rglob("objects.json"):
        path.unlink()
        path.symlink_to("/dev/zero")


def _key_fifo(key: Path) -> None:
    key.unlink()
    os.mkfifo(key)


CORRUPTIONS: dict[str, Callable[[Path, Path], None]] = {
    "a-value-edited": _forge_a_value,
    "a-file-linked-out-of-the-cache": _link_out,
    "a-fifo": _fifo,
    "a-link-to-dev-zero": _entry_to_dev_zero,
}
HANGS = {_fifo, _entry_to_dev_zero, _key_fifo}
"""Corruptions a regression would hang on: their ``diff`` is a process (the harness's 60 s)."""


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupted_cache_never_changes_what_diff_reports(
    cached: tuple[Path, Path, str], tmp_path: Path, corrupt: Callable[[Path, Path], None]
) -> None:
    root, cache, expected = cached
    shutil.rmtree(cache)
    shutil.copytree(cache.with_suffix(".pristine"), cache, symlinks=True)
    planned_before = sorted(os.listdir(cache / "plans"))
    outside = tmp_path / "outside"
    outside.mkdir()
    entries = sorted((cache / "plans").iterdir())
    for entry in entries:
        corrupt(entry, outside)
    before_outside = {p.name: p.read_bytes() for p in outside.iterdir()}

    again = _diff(root, cache, process=corrupt in HANGS)

    assert (again.status, again.stdout) == (1, expected), again.stderr
    assert "999" not in again.stdout
    assert again.stderr == ""
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before_outside
    # Both sides were planned again and stored afresh under the same entries, verified.
    assert sorted(os.listdir(cache / "plans")) == planned_before
    for entry in entries:
        assert not [p for p in entry.rglob("*") if p.is_symlink() or p.is_fifo()]
    assert _diff(root, cache).stdout == expected


@pytest.mark.parametrize(
    "spoil",
    [
        _key_fifo,
        lambda key: key.write_text("not hex at all\n"),
        lambda key: key.write_text("ab" * 31 + "\n"),  # hex, 31 bytes: not a key it wrote
        lambda key: key.write_bytes(b"\xff" * 64),
    ],
    ids=["fifo", "not-hex", "short", "not-ascii"],
)
def test_an_unusable_key_file_plans_without_the_cache(
    cached: tuple[Path, Path, str], spoil: Callable[[Path], None]
) -> None:
    """Not an internal error mid-diff: one note, and every plan made afresh."""
    root, cache, expected = cached
    shutil.rmtree(cache)
    shutil.copytree(cache.with_suffix(".pristine"), cache, symlinks=True)
    spoil(cache / KEY_FILE)
    again = _diff(root, cache, process=spoil in HANGS)
    assert (again.status, again.stdout) == (1, expected), again.stderr
    assert again.stderr.startswith("note: plan cache not used: ")
    assert "unusable secret-digest key" in again.stderr and again.stderr.count("\n") == 1
