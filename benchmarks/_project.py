"""Helpers of the benchmarks: a scratch copy of the project, and trainstack run in it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_project(target: Path, names: Iterable[str]) -> None:
    """Copy the project's files and directories ``names`` into ``target`` (no caches)."""
    for name in names:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)


def trainstack_seconds(cwd: Path, *args: str, env: dict[str, str] | None = None) -> float:
    """Wall-clock seconds of one ``python -m trainstack ARGS`` process run in ``cwd``.

    A status other than 0 or 1 (``diff``'s "changes") stops the benchmark with its stderr.
    """
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "trainstack", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    spent = time.monotonic() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"trainstack {' '.join(args)} failed:\n{done.stderr}")
    return spent
