"""scripts/newest_dependencies.py and the weekly workflow that runs it.

The parsing is tested on what uv and pytest really print (uv's lines as uv 0.13 writes
them; a JUnit report written by a real pytest run); the workflow through actionlint.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.diff.test_preview_workflow import PINNED, actionlint
from tests.scripts import load_script
from tests.stack_helpers import REPO
from trainstack.core.yaml.io import read_yaml

WORKFLOW = REPO / ".github" / "workflows" / "newest.yml"


newest = load_script("newest_dependencies")

# `uv lock --upgrade` on a lock holding PyYAML 6.0.3 (uv 0.13.9, stderr).
UV_UPGRADE_OUTPUT = """\
Using CPython 3.11.7 interpreter at: /root/.pyenv/versions/3.11.7/bin/python3
Resolved 92 packages in 1.04s
Updated pyyaml v6.0.3 -> v6.0.4
Updated ruamel-yaml v0.18.16 -> v0.19.1
Added typing-inspection v0.4.2
Removed importlib-metadata v8.7.0
"""


def test_every_change_uv_reports_is_read_in_its_order() -> None:
    changes = newest.lock_changes(UV_UPGRADE_OUTPUT)
    assert [str(change) for change in changes] == [
        "pyyaml v6.0.3 -> v6.0.4 (updated)",
        "ruamel-yaml v0.18.16 -> v0.19.1 (updated)",
        "typing-inspection v0.4.2 (added)",
        "importlib-metadata v8.7.0 (removed)",
    ]


def test_no_change_is_read_from_an_unchanged_lock() -> None:
    assert newest.lock_changes("Resolved 92 packages in 12ms\nNo lockfile changes detected\n") == []


def test_failed_tests_come_from_a_real_junit_report(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")
    (tests / "test_a.py").write_text(
        "import pytest\n"
        "def test_ok(): pass\n"
        "@pytest.mark.parametrize('n', [1, 2])\n"
        "def test_fails(n): assert n == 1\n"
        "@pytest.fixture\n"
        "def broken(): raise RuntimeError\n"
        "def test_errors(broken): pass\n"
    )
    report = tmp_path / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    assert newest.failed_tests(report) == [
        "tests/test_a.py::test_errors",
        "tests/test_a.py::test_fails[2]",
    ]
    assert newest.failed_tests(tmp_path / "missing.xml") == []


def test_the_error_names_the_package_that_breaks_tests_alone() -> None:
    (pyyaml, ruamel, *_) = newest.lock_changes(UV_UPGRADE_OUTPUT)
    failed = [f"tests/test_x.py::test_{n}" for n in range(7)]
    lines = newest.report({pyyaml: failed}, failed)
    assert lines == [
        "::error::pyyaml v6.0.3 -> v6.0.4 (updated) breaks 7 tests: tests/test_x.py::test_0, "
        "tests/test_x.py::test_1, tests/test_x.py::test_2, tests/test_x.py::test_3, "
        "tests/test_x.py::test_4 ..."
    ]
    assert newest.report({}, failed) == [
        "::error::7 tests fail with the newest releases, but with none of the upgrades alone: "
        "the combination breaks them"
    ]
    assert newest.report({}, []) == []


def test_the_weekly_workflow_passes_actionlint_and_runs_the_script() -> None:
    assert actionlint(WORKFLOW) == []
    workflow = read_yaml(WORKFLOW)
    assert isinstance(workflow, dict)
    assert set(workflow["on"]) == {"schedule", "workflow_dispatch"}
    assert workflow["permissions"] == {"contents": "read"}
    (job,) = workflow["jobs"].values()
    uses = [step["uses"] for step in job["steps"] if "uses" in step]
    assert uses and all(PINNED.match(action) for action in uses)
    script = "\n".join(str(step.get("run", "")) for step in job["steps"])
    assert "scripts/newest_dependencies.py" in script
