"""Package the committed chart into a .tgz, refusing a chart that drifted from the model."""

from __future__ import annotations

from pathlib import Path

import helm_python

from trainstack.chart.generate import check_chart
from trainstack.core.errors import ChartError


def package_chart(chart_dir: Path, destination: Path) -> Path:
    """Write ``<name>-<version>.tgz`` into ``destination``; return its path."""
    check_chart(chart_dir)
    destination.mkdir(parents=True, exist_ok=True)
    try:
        return Path(helm_python.package(chart_dir, destination=destination))
    except helm_python.HelmError as err:
        raise ChartError(f"Helm could not package {chart_dir}: {err}") from err
