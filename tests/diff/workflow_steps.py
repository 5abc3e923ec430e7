"""Run a step of ``.github/workflows/preview.yml`` the way a GitHub-hosted runner does.

The step's own ``run:`` text, by its name, in ``bash -e`` (the runner's default shell on
Linux), with the environment the runner gives it: the workflow's and the job's ``env:``,
the step's literal ``env:`` values, ``GITHUB_OUTPUT``/``GITHUB_STEP_SUMMARY`` files and
``RUNNER_TEMP``. ``${{ ... }}`` expressions are not evaluated: steps under test read
their inputs from the environment.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.stack_helpers import REPO
from trainstack.core.yaml.io import read_yaml

WORKFLOW = REPO / ".github" / "workflows" / "preview.yml"


def workflow() -> dict[str, Any]:
    """The workflow file, as YAML data."""
    document = read_yaml(WORKFLOW)
    assert isinstance(document, dict)
    return document


def step(job: str, name: str) -> dict[str, Any]:
    """The step of ``job`` called ``name`` (it must exist once)."""
    [found] = [s for s in workflow()["jobs"][job]["steps"] if s.get("name") == name]
    return found


@dataclass(frozen=True)
class StepRun:
    """How a step ended, and what it handed to the runner."""

    status: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


def run_step(
    job: str, name: str, cwd: Path, scratch: Path, env: dict[str, str] | None = None
) -> StepRun:
    """Run the step's script in ``cwd``; runner files under ``scratch``."""
    document = workflow()
    script = step(job, name)["run"]
    output, summary = scratch / "github-output", scratch / "step-summary"
    output.write_text("")
    summary.write_text("")
    (scratch / "runner-temp").mkdir(exist_ok=True)
    literal = {
        key: str(value)
        for source in (document.get("env", {}), document["jobs"][job].get("env", {}))
        for key, value in source.items()
    }
    environment = {
        **os.environ,
        **literal,
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(scratch / "runner-temp"),
        **(env or {}),
    }
    done = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return StepRun(done.returncode, done.stdout, done.stderr, outputs, summary.read_text())


def fake_gh(directory: Path, answer: str) -> Path:
    """A ``gh`` that logs its arguments to ``directory/gh.log`` and prints ``answer``
    (``--jq`` is GitHub CLI's: the fake prints what that filter would give)."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "gh"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s" "$*" | tr "\\n" " " >> "{directory}/gh.log"\n'
        f'echo >> "{directory}/gh.log"\n'
        f"printf '%s' '{answer}'\n"
    )
    script.chmod(0o755)
    return directory
