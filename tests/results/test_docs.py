"""docs/after-deployment.md's sample output of the results loop is what the tool prints.

The commands read the sample logs committed under examples/logs/ (workload 1, made by
:func:`tests.results.sample_logs.tf_cnn_log`: checked here too). Regenerate the page's
blocks after a change of format: ``.venv/bin/python -m tests.results.test_docs`` prints
them.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.results.sample_logs import (
    AIACC_IMAGES_PER_SEC,
    BASELINE_IMAGES_PER_SEC,
    add_keras,
    tf_cnn_log,
)
from tests.stack_helpers import REPO

PAGE = REPO / "docs" / "after-deployment.md"
SAMPLES = {"aiacc": AIACC_IMAGES_PER_SEC, "baseline": BASELINE_IMAGES_PER_SEC}


def sample_logs(stack: str) -> list[str]:
    """The committed sample logs of ``stack``, relative to the project."""
    return [f"examples/logs/{stack}/imagenet-run{n}.log" for n in range(1, 4)]


def sample_outputs(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The commands of the page's walkthrough and their output, on the sample logs."""
    root = project_copy(tmp / "project")
    shutil.copytree(REPO / "examples", root / "examples")
    outputs: dict[str, str] = {}
    for stack in SAMPLES:
        command = ["results", "add", stack, "imagenet-tensorflow", *sample_logs(stack)]
        outputs[" ".join(command)] = run(root, *command, monkeypatch=monkeypatch).stdout
    for command in (
        ["results", "compare", "aiacc", "baseline"],
        ["results", "compare", "aiacc", "baseline", "--format", "markdown"],
    ):
        outputs[" ".join(command)] = run(root, *command, monkeypatch=monkeypatch).stdout
    add_keras(root, tmp / "keras-logs", monkeypatch)
    command = ["results", "scaling", "aiacc", "keras-lstm"]
    outputs[" ".join(command)] = run(root, *command, monkeypatch=monkeypatch).stdout
    return outputs


def test_the_sample_logs_are_the_test_suites() -> None:
    for stack, values in SAMPLES.items():
        for name, value in zip(sample_logs(stack), values, strict=True):
            assert (REPO / name).read_text(encoding="utf-8") == tf_cnn_log(value), name


def test_the_page_shows_what_the_tool_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = PAGE.read_text(encoding="utf-8")
    for command, output in sample_outputs(tmp_path, monkeypatch).items():
        assert f"$ trainstack {command}\n{output}" in page, command


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch, pytest.MonkeyPatch.context() as patch:
        for command, output in sample_outputs(Path(scratch), patch).items():
            print(f"$ trainstack {command}\n{output}")
