"""The README's sample output of the results loop is what the tool prints for these logs.

Regenerate after a change of format: ``.venv/bin/python -m tests.results.test_readme``
prints the blocks to paste into README.md.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.results.sample_logs import (
    AIACC_IMAGES_PER_SEC,
    BASELINE_IMAGES_PER_SEC,
    add_keras,
    tf_cnn_log,
    write,
)
from tests.stack_helpers import REPO


def sample_outputs(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The commands of the README's walkthrough and their output, on the test logs."""
    root = project_copy(tmp / "project")
    logs = tmp / "logs"
    outputs: dict[str, str] = {}
    for stack, values in (("aiacc", AIACC_IMAGES_PER_SEC), ("baseline", BASELINE_IMAGES_PER_SEC)):
        files = [
            write(logs / stack, f"imagenet-run{n}.log", tf_cnn_log(v))
            for n, v in enumerate(values, 1)
        ]
        names = [f"logs/{stack}/{f.name}" for f in files]
        command = ["results", "add", stack, "imagenet-tensorflow", *names]
        monkeypatch.chdir(tmp)
        outputs[" ".join(command)] = run(
            root, *command[:4], *map(str, files), monkeypatch=monkeypatch
        ).stdout
    for command in (
        ["results", "compare", "aiacc", "baseline"],
        ["results", "compare", "aiacc", "baseline", "--format", "markdown"],
    ):
        outputs[" ".join(command)] = run(root, *command, monkeypatch=monkeypatch).stdout
    add_keras(root, logs / "aiacc", monkeypatch)
    command = ["results", "scaling", "aiacc", "keras-lstm"]
    outputs[" ".join(command)] = run(root, *command, monkeypatch=monkeypatch).stdout
    return outputs


def test_readme_shows_what_the_tool_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO / "README.md").read_text()
    for command, output in sample_outputs(tmp_path, monkeypatch).items():
        printed = output.replace(str(tmp_path / "project") + "/", "")
        assert f"$ trainstack {command}\n{printed}" in readme, command


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch, pytest.MonkeyPatch.context() as patch:
        for command, output in sample_outputs(Path(scratch), patch).items():
            print(f"$ trainstack {command}\n{output.replace(scratch + '/project/', '')}")
