"""The trainstack process ends at once, but as an exit must: status, output, exit handlers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.stack_helpers import REPO

# A process that registers an exit handler (as coverage or a logging set-up would), then
# runs the command line as the `trainstack` executable does.
_PROGRAM = """
import atexit, sys
from pathlib import Path
atexit.register(Path(sys.argv[1]).write_text, "handler ran")
atexit.register(lambda: print("printed by a handler"))
sys.argv = ["trainstack", *sys.argv[2:]]
from trainstack.cli import run
run()
"""


def _python(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    marker = tmp_path / "marker"
    return _python(tmp_path, "-c", _PROGRAM, str(marker), *args), marker


def test_success_keeps_its_status_output_and_exit_handlers(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("trainstack ")
    assert done.stdout.endswith("printed by a handler\n")
    assert marker.read_text() == "handler ran"


def test_a_user_error_keeps_status_2_its_message_and_exit_handlers(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "plan", "aiacc")  # no Pulumi.yaml here
    assert done.returncode == 2
    assert done.stderr.startswith("error: ")
    assert "Pulumi.yaml" in done.stderr
    assert marker.read_text() == "handler ran"


def test_a_usage_error_keeps_its_status(tmp_path: Path) -> None:
    done, marker = _run(tmp_path, "no-such-command")
    assert done.returncode == 2
    assert "No such command" in done.stderr
    assert marker.read_text() == "handler ran"


def test_a_profiler_still_gets_to_write_its_report(tmp_path: Path) -> None:
    """``python -m cProfile -o FILE -m trainstack``: the profile is written after the
    program returns, so the process does not end at once under a profiler."""
    report = tmp_path / "profile"
    done = _python(tmp_path, "-m", "cProfile", "-o", str(report), "-m", "trainstack", "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("trainstack ")
    assert report.stat().st_size > 0
