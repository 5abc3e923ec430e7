"""The populate Job's marker logic and the wait of other clusters, run for real by the
shells on a temporary directory standing in for the mounted file system."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from components.populate_marker import FAILED, MARKER, WAIT_SCRIPT
from tests.components.populate_harness import (
    SHELLS,
    TARGET,
    Sandbox,
    Server,
    last_line,
    run,
    shell,
    spec,
)
from trainstack.config.populate import Populate

pytestmark = pytest.mark.parametrize("sh_name", sorted(SHELLS))
# The spec's extra command: counts its runs outside the data (a file the test watches).
COUNT = ["/bin/sh", "-c", 'echo run >> "$RUNS"']


def _spec(server: Server, **changes: object) -> Populate:
    source = {"kind": "http", "files": server.files(), "target": TARGET}
    return spec(source, command=COUNT, **changes)


def _populate(sh_name: str, box: Sandbox, populate: Populate) -> subprocess.CompletedProcess[str]:
    runs = str(box.root.parent / "runs")
    return run(shell(sh_name), box, populate, extra_env={"RUNS": runs})


def _runs(box: Sandbox) -> str:
    runs = box.root.parent / "runs"
    return runs.read_text() if runs.exists() else ""


def _files(data: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()
    }


def test_runs_once_then_skips_the_same_spec(sh_name: str, server: Server, box: Sandbox) -> None:
    populate = _spec(server)
    first = _populate(sh_name, box, populate)
    assert first.returncode == 0, first.stderr
    assert (box.data / MARKER).read_text() == f"{populate.digest}\n"
    second = _populate(sh_name, box, populate)
    assert second.returncode == 0, second.stderr
    assert f"populated already by this spec ({populate.digest}): nothing to do" in second.stdout
    assert _runs(box) == "run\n"  # the command ran once


def test_refuses_to_overwrite_another_specs_data(
    sh_name: str, server: Server, box: Sandbox
) -> None:
    first = _spec(server)
    assert _populate(sh_name, box, first).returncode == 0
    before = _files(box.data)
    other = _spec(server, verify="quick")
    changed = _populate(sh_name, box, other)
    assert changed.returncode == 3
    assert last_line(changed) == (
        f"populate failed: {box.data}: refusing to populate: it was populated by another "
        f"spec ({first.digest}); set overwrite: true to rewrite it"
    )
    # nothing touched but the failure file, the old marker kept
    assert {k: v for k, v in _files(box.data).items() if k != FAILED} == before
    assert _runs(box) == "run\n"


def test_refuses_files_it_did_not_write(sh_name: str, server: Server, box: Sandbox) -> None:
    (box.data / "copied-by-hand.tfrecord").write_text("precious")
    refused = _populate(sh_name, box, _spec(server))
    assert refused.returncode == 3
    assert "holds files this populate spec did not write (copied-by-hand.tfrecord)" in (
        last_line(refused)
    )
    assert (box.data / "copied-by-hand.tfrecord").read_text() == "precious"
    assert sorted(p.name for p in box.data.iterdir()) == sorted(["copied-by-hand.tfrecord", FAILED])
    assert _runs(box) == ""


def test_overwrite_true_runs_a_changed_spec(sh_name: str, server: Server, box: Sandbox) -> None:
    assert _populate(sh_name, box, _spec(server)).returncode == 0
    changed = _spec(server, verify="quick", overwrite=True)
    rerun = _populate(sh_name, box, changed)
    assert rerun.returncode == 0, rerun.stderr
    assert (box.data / MARKER).read_text() == f"{changed.digest}\n"
    assert _runs(box) == "run\nrun\n"


def test_a_failed_command_leaves_no_marker(sh_name: str, server: Server, box: Sandbox) -> None:
    failing = spec(
        {"kind": "http", "files": server.files(), "target": TARGET},
        command=["/bin/sh", "-c", "exit 7"],
    )
    failed = run(shell(sh_name), box, failing)
    assert failed.returncode == 1
    assert last_line(failed) == "populate failed: the command (/bin/sh): exited 7"
    assert not (box.data / MARKER).exists()


def test_existing_data_is_only_verified(sh_name: str, server: Server, box: Sandbox) -> None:
    for path, content in server.tree.items():
        (box.data / TARGET / path).parent.mkdir(parents=True, exist_ok=True)
        (box.data / TARGET / path).write_bytes(content)
    populate = spec({"kind": "existing"})
    done = run(shell(sh_name), box, populate)
    assert done.returncode == 0, done.stderr
    assert (box.data / MARKER).read_text() == f"{populate.digest}\n"


def _wait(sh_name: str, data: Path, digest: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "TRAINSTACK_DATA_DIR": str(data),
        "TRAINSTACK_POPULATE_DIGEST": digest,
        "TRAINSTACK_WAIT_SECONDS": "1",
    }
    return subprocess.run(
        [*shell(sh_name), "-c", WAIT_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_the_wait_returns_once_the_marker_holds_the_digest(sh_name: str, tmp_path: Path) -> None:
    (tmp_path / MARKER).write_text("d1\n")
    done = _wait(sh_name, tmp_path, "d1")
    assert (done.returncode, done.stdout) == (0, "populated: d1\n")


def test_the_wait_ends_with_the_populates_reason(sh_name: str, tmp_path: Path) -> None:
    (tmp_path / FAILED).write_text("d1\npopulate failed: https://x/a: HTTP 404\n")
    ended = _wait(sh_name, tmp_path, "d1")
    assert ended.returncode == 1
    assert ended.stderr == "populate failed: https://x/a: HTTP 404\n"


def test_the_wait_ignores_the_failure_of_another_spec(sh_name: str, tmp_path: Path) -> None:
    # an older spec failed; this one has not run yet: keep waiting (the deadline bounds it)
    (tmp_path / FAILED).write_text("d0\npopulate failed: https://x/a: HTTP 404\n")
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run(
            [*shell(sh_name), "-c", WAIT_SCRIPT],
            env={
                "PATH": "/usr/bin:/bin",
                "TRAINSTACK_DATA_DIR": str(tmp_path),
                "TRAINSTACK_POPULATE_DIGEST": "d1",
                "TRAINSTACK_WAIT_SECONDS": "1",
            },
            capture_output=True,
            timeout=3,
            check=False,
        )
