"""The trainstack command as users run it: exit statuses and messages."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.stack_helpers import REPO, example_config
from trainstack.yaml_io import dump_yaml

TRAINSTACK = [sys.executable, "-m", "trainstack"]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [*TRAINSTACK, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def _project_copy(tmp_path: Path) -> Path:
    shutil.copy(REPO / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    return tmp_path


def test_bad_stack_exits_2_with_one_message_and_writes_nothing(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = -1
    (root / "stacks" / "Pulumi.bad.yaml").write_text(dump_yaml({"config": config}))
    result = _run(["plan", "bad"], root)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        "error: invalid stack configuration in stacks/Pulumi.bad.yaml: "
        "trainstack:nodePools[0].desiredSize: found -1; allowed: a number >= 0"
    )
    assert not (root / "build").exists()


def test_unknown_stack_lists_the_known_ones(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    (root / "stacks" / "Pulumi.aiacc.yaml").write_text("config: {}\n")
    result = _run(["plan", "aiac"], root)
    assert result.returncode == 2
    assert "stack 'aiac' has no configuration file stacks/Pulumi.aiac.yaml" in result.stderr
    assert "stacks in this project: aiacc" in result.stderr


def test_outside_a_project(tmp_path: Path) -> None:
    result = _run(["plan", "aiacc"], tmp_path)
    assert result.returncode == 2
    assert "no Pulumi.yaml" in result.stderr


def test_plan_writes_the_example_stack(tmp_path: Path) -> None:
    result = _run(["plan", "baseline", "--output-dir", str(tmp_path)], REPO)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "baseline" / "resources.json").is_file()
    assert "16 GPUs" in result.stdout
    assert "cannot be fetched offline" in " ".join(result.stdout.split())
