"""The chart's helm-unittest suites (charts/training-job/tests/*_test.yaml).

With ``helm`` and the helm-unittest plugin on PATH the plugin runs them; the same suites
also run through Helm's engine via helm-python-sdk, so they are checked on every machine.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.chart.jobs import CHART_DIR
from tests.chart.unittest_suites import load_suite, run_test

SUITES = sorted((CHART_DIR / "tests").glob("*_test.yaml"))
CASES = [
    pytest.param(path, suite, test, id=f"{path.stem}: {test['it']}")
    for path in SUITES
    for suite in [load_suite(path)]
    for test in suite["tests"]
]


def _plugin_missing() -> str | None:
    if shutil.which("helm") is None:
        return "helm is not on PATH"
    plugins = subprocess.run(["helm", "plugin", "list"], capture_output=True, text=True)
    if "unittest" not in plugins.stdout:
        return "the helm-unittest plugin is not installed (helm plugin install helm-unittest)"
    return None


def test_there_are_suites_for_every_job_kind() -> None:
    templates = {t for path in SUITES for t in load_suite(path)["templates"]}
    assert {
        "templates/mpijob.yaml",
        "templates/tfjob.yaml",
        "templates/pytorchjob.yaml",
        "templates/trainjob.yaml",
    } <= templates
    assert len(CASES) >= 20


@pytest.mark.parametrize(("path", "suite", "test"), CASES)
def test_suite_case_through_helm_python(
    path: Path, suite: dict[str, Any], test: dict[str, Any]
) -> None:
    run_test(CHART_DIR, path, suite, test)


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    suite = load_suite(SUITES[0])
    test = {
        "it": "expects three launchers",
        "asserts": [{"equal": {"path": "spec.mpiReplicaSpecs.Launcher.replicas", "value": 3}}],
    }
    with pytest.raises(AssertionError, match=r"equal .* failed; found 1"):
        run_test(CHART_DIR, CHART_DIR / "tests" / "mpijob_test.yaml", suite, test)


def test_helm_unittest_plugin() -> None:
    reason = _plugin_missing()
    if reason:
        pytest.skip(reason)
    result = subprocess.run(
        ["helm", "unittest", str(CHART_DIR)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
