"""Read a values file into a :class:`TrainingJob`, with errors that name file and key."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from trainstack.errors import Problem, ValuesError
from trainstack.training_job.model import TrainingJob
from trainstack.validation import problems_from


def validate_values(values: Mapping[str, Any], source: str | Path) -> TrainingJob:
    """Validate chart values already in memory; ``source`` names them in errors."""
    try:
        return TrainingJob.model_validate(values)
    except ValidationError as err:
        raise ValuesError(source, problems_from(err, TrainingJob)) from err


def load_values(path: Path) -> TrainingJob:
    """Read and validate a values file (YAML)."""
    return validate_values(read_values_file(path), path)


def read_values_file(path: Path) -> dict[str, Any]:
    """The mapping in a values file, unvalidated (for Helm, which merges and checks it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        problem = Problem("(file)", "unreadable", f"a readable file ({err})")
        raise ValuesError(path, [problem]) from err
    try:
        data = YAML(typ="safe").load(text)
    except YAMLError as err:
        problem = Problem("(file)", "invalid YAML", f"valid YAML ({_first_line(err)})")
        raise ValuesError(path, [problem]) from err
    if data is None:
        data = {}
    if not isinstance(data, dict):
        problem = Problem("(file)", f"a {type(data).__name__}", "a mapping of chart values")
        raise ValuesError(path, [problem])
    return data


def _first_line(err: YAMLError) -> str:
    return " ".join(str(err).split())
