"""Where results live: ``results/STACK/EXPERIMENT/run-NNN.{json,log}``, and nowhere else.

Every path is built here from names already validated (a project's stack, a DNS-label
experiment name, a run number), so no command writes outside ``results/``.
"""

from __future__ import annotations

import re
from pathlib import Path

from trainstack.core.errors import ResultsError
from trainstack.core.files import link_leaving, outside_problem

RESULTS_DIR = "results"
_RUN_FILE = re.compile(r"^run-(\d{3,})\.json$")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _component(name: str, what: str) -> str:
    if not _SAFE_NAME.fullmatch(name) or ".." in name:
        raise ResultsError(f"{what} {name!r} cannot name a results directory")
    return name


def stack_dir(root: Path, stack: str) -> Path:
    """``results/STACK`` of the project at ``root``."""
    return inside(root, root / RESULTS_DIR / _component(stack, "stack"))


def experiment_dir(root: Path, stack: str, experiment: str) -> Path:
    """``results/STACK/EXPERIMENT``."""
    return inside(root, stack_dir(root, stack) / _component(experiment, "experiment"))


def inside(root: Path, path: Path) -> Path:
    """``path``, unless a symbolic link on the way there leads out of the project at
    ``root``: results are read and written only inside it (the error names the link)."""
    leaving = link_leaving(path, root)
    if leaving is not None:
        problem = outside_problem(leaving, "a directory of the project")
        raise ResultsError(
            f"{leaving.relative_to(root)}: {problem.found}: refused (results are read and "
            "written only inside the project; replace the link with a directory)"
        )
    return path


def record_name(run: int) -> str:
    """``run-001.json``: zero-padded so that names sort like numbers up to 999."""
    return f"run-{run:03d}.json"


def log_name(run: int) -> str:
    """``run-001.log``, the raw log beside its record."""
    return f"run-{run:03d}.log"


def run_number(path: Path) -> int | None:
    """The run number of a record file name, or ``None`` for any other file."""
    match = _RUN_FILE.fullmatch(path.name)
    return int(match.group(1)) if match else None
