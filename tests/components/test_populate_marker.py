"""The populate Job's marker logic, run for real by /bin/sh on a temporary directory
standing in for the mounted file system."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from components.populate_marker import MARKER, POPULATE_SCRIPT, WAIT_SCRIPT

# The spec's command: counts its runs outside the data, writes two shards inside.
COMMAND = [
    "/bin/sh",
    "-c",
    'echo run >> "$RUNS"; printf a > "$TRAINSTACK_DATA_DIR/train-00000-of-00002";'
    ' printf b > "$TRAINSTACK_DATA_DIR/train-00001-of-00002"',
]


def _populate(
    data: Path, runs: Path, digest: str, *, overwrite: bool = False, command: list[str] = COMMAND
) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "TRAINSTACK_DATA_DIR": str(data),
        "TRAINSTACK_POPULATE_DIGEST": digest,
        "TRAINSTACK_POPULATE_OVERWRITE": "true" if overwrite else "false",
        "RUNS": str(runs),
    }
    return subprocess.run(
        ["/bin/sh", "-c", POPULATE_SCRIPT, "populate", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    directory = tmp_path / "mount"
    directory.mkdir()
    return directory


def _files(data: Path) -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(data.iterdir())}


def test_runs_once_then_skips_the_same_spec(data: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    first = _populate(data, runs, "d1")
    assert first.returncode == 0, first.stderr
    assert _files(data) == {
        MARKER: "d1\n",
        "train-00000-of-00002": "a",
        "train-00001-of-00002": "b",
    }
    second = _populate(data, runs, "d1")
    assert second.returncode == 0, second.stderr
    assert "populated already by this spec (d1): nothing to do" in second.stdout
    assert runs.read_text() == "run\n"  # the command ran once


def test_refuses_to_overwrite_another_specs_data(data: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    assert _populate(data, runs, "d1").returncode == 0
    before = _files(data)
    changed = _populate(data, runs, "d2")
    assert changed.returncode == 3
    assert "populated by another spec (d1)" in changed.stderr
    assert "set overwrite: true" in changed.stderr
    assert _files(data) == before  # nothing touched, the old marker kept
    assert runs.read_text() == "run\n"


def test_refuses_files_it_did_not_write(data: Path, tmp_path: Path) -> None:
    (data / "copied-by-hand.tfrecord").write_text("precious")
    refused = _populate(data, tmp_path / "runs", "d1")
    assert refused.returncode == 3
    assert "holds files this populate spec did not write" in refused.stderr
    assert _files(data) == {"copied-by-hand.tfrecord": "precious"}
    assert not (tmp_path / "runs").exists()


def test_overwrite_true_runs_a_changed_spec(data: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    assert _populate(data, runs, "d1").returncode == 0
    rerun = _populate(data, runs, "d2", overwrite=True)
    assert rerun.returncode == 0, rerun.stderr
    assert (data / MARKER).read_text() == "d2\n"
    assert runs.read_text() == "run\nrun\n"


def test_a_failed_command_leaves_no_marker(data: Path, tmp_path: Path) -> None:
    failed = _populate(data, tmp_path / "runs", "d1", command=["/bin/sh", "-c", "exit 7"])
    assert failed.returncode == 7
    assert not (data / MARKER).exists()
    # and the next run is not skipped: it tries again
    again = _populate(data, tmp_path / "runs", "d1")
    assert again.returncode == 0, again.stderr
    assert (data / MARKER).read_text() == "d1\n"


def test_the_wait_returns_once_the_marker_holds_the_digest(data: Path) -> None:
    (data / MARKER).write_text("d1\n")
    env = {"PATH": "/usr/bin:/bin", "TRAINSTACK_DATA_DIR": str(data)}
    done = subprocess.run(
        ["/bin/sh", "-c", WAIT_SCRIPT],
        env={**env, "TRAINSTACK_POPULATE_DIGEST": "d1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "populated: d1\n")
