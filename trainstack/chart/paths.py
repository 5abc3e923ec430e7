"""Where the committed chart is: ``charts/training-job`` under the project root."""

from __future__ import annotations

from pathlib import Path

from trainstack.core.project import Project

# Here, not in chart.constants (which reads the framework registry): every command's
# start-up imports this module for the chart commands' defaults.
CHART_DIR = "charts/training-job"
"""The committed chart, relative to the project root."""


def repo_chart_dir(start: Path | None = None) -> Path:
    """The committed chart of the project containing ``start`` (default: cwd)."""
    return Project.find(start).root / CHART_DIR
