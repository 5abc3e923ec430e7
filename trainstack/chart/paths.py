"""Where the project and its committed chart are."""

from __future__ import annotations

from pathlib import Path

from trainstack.chart.constants import CHART_DIR
from trainstack.errors import ProjectNotFoundError


def project_root(start: Path | None = None) -> Path:
    """The nearest directory at or above ``start`` (default: cwd) holding ``Pulumi.yaml``."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        if (directory / "Pulumi.yaml").is_file():
            return directory
    raise ProjectNotFoundError(here)


def repo_chart_dir(start: Path | None = None) -> Path:
    """The committed chart, ``charts/training-job`` under the project root."""
    return project_root(start) / CHART_DIR
