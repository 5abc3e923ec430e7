"""Read the experiment files of a directory (one experiment or matrix per file)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from trainstack.core.errors import ExperimentError, InvalidInputError, Problem, raise_all
from trainstack.core.files import link_leaving, outside_problem
from trainstack.core.limits import MAX_EXPERIMENT_FILES
from trainstack.core.mentions import Files
from trainstack.core.validation import problems_from
from trainstack.core.yaml.io import read_helm_yaml
from trainstack.experiments.model import ExperimentFile

SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class ExperimentSource:
    """A validated experiment file and how messages name it."""

    path: Path
    display: str
    spec: ExperimentFile

    @property
    def files(self) -> Files:
        """The file by the name messages give it."""
        return {self.display: self.path}


def read_catalog(directory: Path, display_root: Path) -> list[ExperimentSource]:
    """Every experiment file (``*.yaml``, ``*.yml``) of ``directory``, sorted by file name.

    Nothing is skipped silently: an entry with an experiment file's name that cannot be
    read (a dangling symbolic link, a directory, a file without read permission) is an
    error naming it, one per entry, all reported together.
    """
    leaving = link_leaving(directory, display_root)
    if leaving is not None:
        problem = outside_problem(leaving, "a directory inside the project")
        raise ExperimentError(_display(leaving, display_root), [problem])
    try:
        entries = sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES)
    except OSError as error:
        problem = Problem(
            "(directory)", f"unreadable ({error.strerror or error})", "a readable directory"
        )
        raise ExperimentError(_display(directory, display_root), [problem]) from None
    if len(entries) > MAX_EXPERIMENT_FILES:
        problem = Problem(
            "(directory)",
            f"{len(entries)} experiment files",
            f"at most {MAX_EXPERIMENT_FILES:,} (trainstack's limit)",
        )
        raise ExperimentError(_display(directory, display_root), [problem])
    sources: list[ExperimentSource] = []
    errors: list[InvalidInputError] = []
    for path in entries:
        display = _display(path, display_root)
        try:
            if path.is_symlink() and not path.exists():
                raise ExperimentError(display, [_dangling(path)])
            if link_leaving(path, display_root) is not None:
                allowed = "an experiment file inside the project (copy the file here instead)"
                raise ExperimentError(display, [outside_problem(path, allowed)])
            sources.append(read_experiment(path, display))
        except InvalidInputError as error:
            errors.append(error)
    raise_all(errors)
    return sources


def _dangling(path: Path) -> Problem:
    return Problem(
        "(file)",
        f"a symbolic link to {os.readlink(path)!r}, which does not exist",
        "an experiment file: restore the link's target, or remove the link",
    )


def read_experiment(path: Path, display: str) -> ExperimentSource:
    """Validate one experiment file (its ``job`` is validated once expanded).

    The file is read as ``helm install -f`` reads a values file: its ``job`` section
    means to trainstack what it means to Helm.
    """
    document = read_helm_yaml(path, display)
    try:
        spec = ExperimentFile.model_validate(document)
    except ValidationError as error:
        problems = problems_from(error, ExperimentFile)
        raise ExperimentError(display, problems, {display: path}) from error
    return ExperimentSource(path=path, display=display, spec=spec)


def _display(path: Path, root: Path) -> str:
    """``path`` relative to the project (a link's own name, not its target's)."""
    try:
        return str(path.absolute().relative_to(root.absolute()))
    except ValueError:
        return str(path)
