"""Reading the files users write: bounded, regular files only, each refusal naming the file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trainstack.core.errors import InputLimitError
from trainstack.core.files import open_regular, read_at_most, read_source
from trainstack.core.limits import MAX_FILE_BYTES


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * MAX_FILE_BYTES + "\n")
    with pytest.raises(InputLimitError, match=r"\(file\): found more than 1048576 bytes"):
        read_source(path, "big.yaml")


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_only_regular_files_are_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "values.yaml"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)  # opening it would wait for a writer forever
    else:
        path = Path("/dev/zero")  # reading it would never end
    with pytest.raises(InputLimitError, match="found a directory, device or pipe"):
        read_source(path, "values.yaml")


def test_a_missing_file_is_one_clear_problem(tmp_path: Path) -> None:
    with pytest.raises(InputLimitError, match=r"found unreadable \(No such file or directory\)"):
        read_source(tmp_path / "absent.yaml")


@pytest.mark.parametrize("kind", ["fifo", "device", "link"])
def test_open_regular_never_opens_anything_else(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "entry"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        (tmp_path / "real").write_text("x")
        path.symlink_to(tmp_path / "real")
    with pytest.raises(OSError, match="not a regular file|a symbolic link"):
        open_regular(path, follow_links=kind == "device")


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101, 5000])
def test_read_at_most_reads_the_whole_file_up_to_the_limit(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f"
    path.write_bytes(bytes(range(256)) * 20)
    os.truncate(path, size)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        assert read_at_most(descriptor, 101) == path.read_bytes()[:101]
    finally:
        os.close(descriptor)


def test_read_at_most_reads_past_a_size_the_file_does_not_tell() -> None:
    """Files of /proc say size 0 and still hold text: read on to their end."""
    descriptor = os.open("/proc/self/status", os.O_RDONLY)
    try:
        assert b"Name:" in read_at_most(descriptor, 1 << 20)
    finally:
        os.close(descriptor)
