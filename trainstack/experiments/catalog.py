"""Read the experiment files of a directory (one experiment or matrix per file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from trainstack.errors import ExperimentError, Problem
from trainstack.experiments.model import ExperimentFile
from trainstack.limits import MAX_EXPERIMENTS
from trainstack.validation import problems_from
from trainstack.yaml_io import read_helm_yaml

SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class ExperimentSource:
    """A validated experiment file and how messages name it."""

    path: Path
    display: str
    spec: ExperimentFile


def read_catalog(directory: Path, display_root: Path) -> list[ExperimentSource]:
    """Every experiment file of ``directory``, sorted by file name.

    A missing directory is an empty catalog: a stack may run no experiment at all.
    """
    if not directory.is_dir():
        return []
    files = sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())
    if len(files) > MAX_EXPERIMENTS:
        problem = Problem(
            "(directory)", f"{len(files)} experiment files", f"at most {MAX_EXPERIMENTS}"
        )
        raise ExperimentError(_display(directory, display_root), [problem])
    return [read_experiment(path, _display(path, display_root)) for path in files]


def read_experiment(path: Path, display: str) -> ExperimentSource:
    """Validate one experiment file (its ``job`` is validated once expanded).

    The file is read as ``helm install -f`` reads a values file: its ``job`` section
    means to trainstack what it means to Helm.
    """
    document = read_helm_yaml(path, display)
    try:
        spec = ExperimentFile.model_validate(document)
    except ValidationError as error:
        raise ExperimentError(display, problems_from(error, ExperimentFile)) from error
    return ExperimentSource(path=path, display=display, spec=spec)


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
