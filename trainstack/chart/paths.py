"""Where the committed chart is: ``charts/training-job`` under the project root."""

from __future__ import annotations

from pathlib import Path

from trainstack.chart.constants import CHART_DIR
from trainstack.core.project import Project


def repo_chart_dir(start: Path | None = None) -> Path:
    """The committed chart of the project containing ``start`` (default: cwd)."""
    return Project.find(start).root / CHART_DIR
