"""``helm lint`` (through helm-python-sdk) finds no error in the chart."""

from __future__ import annotations

from pathlib import Path

import helm_python
import pytest

from tests.chart.jobs import CHART_DIR, CI_VALUES
from trainstack.training_job import read_values_file

ERROR = 3  # helm_python's severity of a lint error


@pytest.mark.parametrize("path", CI_VALUES, ids=lambda path: path.name)
def test_lint_reports_no_error_with_the_example_values(path: Path) -> None:
    report = helm_python.lint(CHART_DIR, read_values_file(path), strict=True)

    assert report["total_charts_linted"] == 1
    assert report["errors"] == []
    assert [m for m in report["messages"] if m["severity"] >= ERROR] == []


def test_lint_does_report_values_the_chart_cannot_run() -> None:
    # the same call, with the required image and command missing, must not pass
    report = helm_python.lint(CHART_DIR, None)

    assert any("'/image/name'" in error for error in report["errors"])
