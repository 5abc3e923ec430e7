from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.health.factories import facts
from trainstack.core.errors import FactsFileError, OutputError
from trainstack.health.store import health_json, health_path, read_health, write_health


def test_written_then_read_the_same_and_the_same_bytes(tmp_path: Path) -> None:
    written = facts("aiacc")
    path, changed = write_health(tmp_path, written)
    assert (path, changed) == (tmp_path / "facts" / "aiacc.health.json", True)
    assert read_health(tmp_path, "aiacc", str) == written
    assert write_health(tmp_path, written) == (path, False)
    assert path.read_text(encoding="ascii") == health_json(written)


def test_never_measured_is_none(tmp_path: Path) -> None:
    assert read_health(tmp_path, "aiacc", str) is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("{", "invalid JSON"),
        ("[" * 100_000, "nested"),
        ('{"format": "trainstack-health/2"}', "format"),
    ],
)
def test_a_broken_file_is_one_error_naming_it(tmp_path: Path, text: str, found: str) -> None:
    path = health_path(tmp_path, "aiacc")
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FactsFileError, match=found):
        read_health(tmp_path, "aiacc", lambda p: p.name)


def test_a_file_of_another_stack_is_refused(tmp_path: Path) -> None:
    write_health(tmp_path, facts("baseline"))
    os.replace(health_path(tmp_path, "baseline"), health_path(tmp_path, "aiacc"))
    with pytest.raises(FactsFileError, match='"aiacc", as in the file name'):
        read_health(tmp_path, "aiacc", str)


def test_a_symbolic_link_is_never_written_through(tmp_path: Path) -> None:
    (tmp_path / "facts").mkdir()
    target = tmp_path / "elsewhere.json"
    target.write_text("keep", encoding="utf-8")
    health_path(tmp_path, "aiacc").symlink_to(target)
    with pytest.raises(OutputError, match="symbolic link: trainstack health writes no link"):
        write_health(tmp_path, facts("aiacc"))
    assert target.read_text(encoding="utf-8") == "keep"
