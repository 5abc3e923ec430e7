"""Run the trainstack command in-process (fast) or as a real process, in a project copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.stack_helpers import REPO
from trainstack.cli import USER_ERROR_EXIT, app
from trainstack.core.errors import TrainstackError
from trainstack.core.yaml.positions import at


@dataclass(frozen=True)
class Ran:
    """Exit status and output of one command."""

    code: int
    stdout: str
    stderr: str


def project_copy(root: Path) -> Path:
    """The project's stacks and experiments in ``root`` (no chart, no results)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "Pulumi.yaml", root / "Pulumi.yaml")
    shutil.copytree(REPO / "stacks", root / "stacks")
    shutil.copytree(REPO / "experiments", root / "experiments")
    return root


def run(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Ran:
    """``trainstack ARGS`` in ``root``, in this process; user errors as ``main()`` shows them."""
    monkeypatch.chdir(root)
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, TrainstackError):
        lines = "".join(f"error: {line}\n" for line in result.exception.lines(at))
        return Ran(USER_ERROR_EXIT, result.stdout, lines)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def run_process(root: Path, *args: str, env: dict[str, str] | None = None) -> Ran:
    """``python -m trainstack ARGS`` as a separate process (what users see, tracebacks too)."""
    environment = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "trainstack", *args],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def venv_launcher(root: Path) -> Path:
    """``root/.venv/bin/trainstack``, running this interpreter's trainstack, as the README's
    commands and the PR workflow's steps call it (``make install`` is not run in copies)."""
    launcher = root / ".venv" / "bin" / "trainstack"
    launcher.parent.mkdir(parents=True, exist_ok=True)
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m trainstack "$@"\n')
    launcher.chmod(0o755)
    return launcher
