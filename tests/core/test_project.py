"""The project on disk: stacks are the files whose names are stack names."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainstack.core.errors import StackNameError
from trainstack.core.project import Project


def test_files_that_name_no_stack_are_not_stacks(tmp_path: Path) -> None:
    for name in ("aiacc", "..", ".hidden", "a b"):
        (tmp_path / f"Pulumi.{name}.yaml").write_text("config: {}\n")
    project = Project(root=tmp_path, name="p", stack_config_dir=tmp_path)
    assert project.stacks() == ["aiacc"]


def test_a_stack_name_never_leaves_the_stack_directory(tmp_path: Path) -> None:
    (tmp_path / "Pulumi.victim.yaml").write_text("config: {}\n")
    project = Project(root=tmp_path, name="p", stack_config_dir=tmp_path / "stacks")
    with pytest.raises(StackNameError, match="stack name '../victim' is invalid"):
        project.stack_file("../victim")
