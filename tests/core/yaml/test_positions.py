"""Where a key is written: ``FILE:LINE: KEY`` for the values still to set before deploying."""

from __future__ import annotations

from pathlib import Path

from trainstack.core.files import read_text
from trainstack.core.yaml.positions import where_written

STACK = """\
config:
  trainstack:acceleration:
    component:
      name: <name>
      version: <version>
"""
EXPERIMENT = """\
name: e
job:
  image:
    name: <image>
"""


def test_a_bare_key_is_found_in_the_stack_file(tmp_path: Path) -> None:
    (tmp_path / "Pulumi.s.yaml").write_text(STACK)
    read_text(tmp_path / "Pulumi.s.yaml", "stacks/Pulumi.s.yaml")  # as the plan reads it
    assert where_written("trainstack:acceleration.component.version", "stacks/Pulumi.s.yaml") == (
        "stacks/Pulumi.s.yaml:5: trainstack:acceleration.component.version"
    )


def test_a_key_listed_with_its_file_is_found_in_that_file(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text(EXPERIMENT)
    read_text(tmp_path / "e.yaml", "experiments/e.yaml")
    listed = "experiments/e.yaml (matrix point gpus=2): job.image.name"
    assert where_written(listed, "stacks/Pulumi.s.yaml") == (
        "experiments/e.yaml:4 (matrix point gpus=2): job.image.name"
    )


def test_a_file_never_read_gives_the_key_without_a_line() -> None:
    """Under ``pulumi up`` the engine hands the program the stack's values, not its file."""
    assert where_written("trainstack:cluster.vpcId", "stacks/Pulumi.unread.yaml") == (
        "stacks/Pulumi.unread.yaml: trainstack:cluster.vpcId"
    )
