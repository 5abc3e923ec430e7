"""The experiments a command names, found in the stack's experiments directory whether the
stack selects them or not: an experiment, a matrix (all its points), a matrix point, or
an experiment file by its path."""

from __future__ import annotations

from pathlib import Path

from trainstack.config.experiments import matches
from trainstack.config.stack import StackConfig
from trainstack.core.errors import (
    ExperimentError,
    Problem,
    TrainstackError,
    UnknownExperimentError,
)
from trainstack.experiments.catalog import SUFFIXES, read_catalog
from trainstack.experiments.resolve import Candidate
from trainstack.experiments.select import expand


def find_targets(
    project_root: Path, config: StackConfig, stack: str, stack_file: str, wanted: str
) -> list[Candidate]:
    """The candidates ``wanted`` names (a name, or the path of a file of the directory),
    in the file's order; an error lists the directory's names, or names the stack's
    ``exclude`` that leaves one out (a stack that excludes an experiment never runs it)."""
    directory = project_root / config.experiments.directory
    catalog = read_catalog(directory, project_root) if directory.is_dir() else []
    candidates = [candidate for source in catalog for candidate in expand(source)]
    if wanted.endswith(SUFFIXES) or "/" in wanted:
        path = Path(wanted).absolute()
        chosen = [c for c in candidates if c.source.path.absolute() == path]
        if not chosen:
            where = config.experiments.directory
            problem = Problem("(file)", "not in the stack's experiments directory", f"{where}/")
            raise ExperimentError(wanted, [problem])
    else:
        chosen = [c for c in candidates if wanted in (c.name, c.source.spec.name)]
    if not chosen:
        runnable = [c for c in candidates if _excluded(config, c) is None]
        known = sorted({c.name for c in runnable} | {c.source.spec.name for c in runnable})
        raise UnknownExperimentError(wanted, stack, stack_file, known)
    for candidate in chosen:
        excluded = _excluded(config, candidate)
        if excluded is not None:
            index, pattern = excluded
            raise TrainstackError(
                f"stack {stack} ({stack_file}) excludes experiment {candidate.name} "
                f"(trainstack:experiments.exclude[{index}]: {pattern!r}): it is meant for "
                "another cluster; run it on a stack that runs it"
            )
    return chosen


def _excluded(config: StackConfig, candidate: Candidate) -> tuple[int, str] | None:
    """The stack's ``exclude`` entry (index, pattern) that leaves ``candidate`` out."""
    names = (candidate.name, candidate.source.spec.name)
    for index, pattern in enumerate(config.experiments.exclude):
        if matches(pattern, names):
            return index, pattern
    return None
