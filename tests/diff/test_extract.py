"""A revision's archive is extracted without following anything, within bounds."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from trainstack.core.errors import DiffError
from trainstack.diff import extract as extract_module
from trainstack.diff.extract import extract, refuse_links_into


def _archive(*members: tuple[str, bytes | str | None, bytes]) -> io.BytesIO:
    """A tar of (name, link target or None, content; a FIFO when the target is b"fifo")."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, target, content in members:
            info = tarfile.TarInfo(name)
            if target == b"fifo":
                info.type = tarfile.FIFOTYPE
                tar.addfile(info)
            elif isinstance(target, str):
                info.type, info.linkname = tarfile.SYMTYPE, target
                tar.addfile(info)
            else:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    buffer.seek(0)
    return buffer


def test_links_leaving_the_tree_and_special_files_are_left_out(tmp_path: Path) -> None:
    archive = _archive(
        ("stacks/Pulumi.a.yaml", None, b"config: {}\n"),
        ("stacks/Pulumi.b.yaml", "Pulumi.a.yaml", b""),  # inside the tree: kept, a link
        ("zero", "/dev/zero", b""),
        ("up", "../../etc/passwd", b""),
        ("pipe", b"fifo", b""),
    )
    left_out = extract(archive, str(tmp_path), "main (1234567)")
    assert left_out == {
        "zero": "/dev/zero",
        "up": "../../etc/passwd",
        "pipe": "not a file, directory or link",
    }
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "Pulumi.a.yaml",
        "Pulumi.b.yaml",
        "stacks",
    ]
    assert (tmp_path / "stacks" / "Pulumi.b.yaml").is_symlink()


def test_a_left_out_link_where_the_plan_reads_is_refused_elsewhere_ignored() -> None:
    left_out = {"project/docs/x": "/etc/passwd", "other/experiments/y": "/etc/passwd"}
    refuse_links_into(left_out, "project", "stacks", "main (1234567)")  # neither is read
    with pytest.raises(DiffError, match=r"main \(1234567\): conf/Pulumi.a.yaml is a symbolic"):
        refuse_links_into({"project/conf/Pulumi.a.yaml": "/x"}, "project", "conf", "main (1234567)")


def test_a_tree_over_the_bounds_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract_module, "MAX_REVISION_BYTES", 10)
    with pytest.raises(DiffError, match="holds more than 10 bytes of files"):
        extract(_archive(("big", None, b"x" * 11)), str(tmp_path / "a"), "main (1234567)")
    monkeypatch.setattr(extract_module, "MAX_REVISION_MEMBERS", 2)
    members = [(f"f{n}", None, b"") for n in range(3)]
    with pytest.raises(DiffError, match="more than 2 files and directories"):
        extract(_archive(*members), str(tmp_path / "b"), "main (1234567)")
