"""Read a values file into a :class:`TrainingJob`, with errors that name file and key."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trainstack.core.errors import ValuesError
from trainstack.core.validation import problems_from
from trainstack.core.yaml.io import read_helm_yaml
from trainstack.training_job.model import TrainingJob


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
    """The mapping in a values file, unvalidated, read as ``helm install -f`` reads it."""
    return read_helm_yaml(path, str(path))
