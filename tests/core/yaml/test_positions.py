"""Where a key is written: ``FILE:LINE: KEY`` for the values still to set before deploying."""

from __future__ import annotations

import os
from pathlib import Path

from trainstack.core.errors import ConfigError, Problem
from trainstack.core.files import read_source
from trainstack.core.yaml.positions import at, key_line, where_written

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
    read = read_source(tmp_path / "Pulumi.s.yaml", "stacks/Pulumi.s.yaml")  # as the plan does
    key = "trainstack:acceleration.component.version"
    assert where_written(key, "stacks/Pulumi.s.yaml", read.files) == (
        "stacks/Pulumi.s.yaml:5: trainstack:acceleration.component.version"
    )


def test_a_key_listed_with_its_file_is_found_in_that_file(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text(EXPERIMENT)
    read = read_source(tmp_path / "e.yaml", "experiments/e.yaml")
    listed = "experiments/e.yaml (matrix point gpus=2): job.image.name"
    assert where_written(listed, "stacks/Pulumi.s.yaml", read.files) == (
        "experiments/e.yaml:4 (matrix point gpus=2): job.image.name"
    )


def test_a_file_never_read_gives_the_key_without_a_line() -> None:
    """Under ``pulumi up`` the engine hands the program the stack's values, not its file."""
    assert where_written("trainstack:cluster.vpcId", "stacks/Pulumi.unread.yaml") == (
        "stacks/Pulumi.unread.yaml: trainstack:cluster.vpcId"
    )


def test_a_line_comes_from_the_file_the_message_is_about(tmp_path: Path) -> None:
    """Two projects' files of one name (two tests, two stacks of a diff): each message
    finds its key in its own file, and one about values without a file finds none, however
    many files of that name were read before."""
    key = "trainstack:acceleration.component.version"
    first, second = tmp_path / "a" / "Pulumi.s.yaml", tmp_path / "b" / "Pulumi.s.yaml"
    for path, text in ((first, STACK), (second, "# one line down\n" + STACK)):
        path.parent.mkdir()
        path.write_text(text)
    name = "stacks/Pulumi.s.yaml"
    files = [read_source(path, name).files for path in (first, second)]
    problem = [Problem(key, "'<version>'", "a version")]
    located = [ConfigError(name, problem, each).lines(at)[0].split(": ")[0] for each in files]
    unread = ConfigError(name, problem).lines(at)[0].split(": ")[0]
    assert located == [
        "invalid stack configuration in stacks/Pulumi.s.yaml:5",
        "invalid stack configuration in stacks/Pulumi.s.yaml:6",
    ]
    assert unread == "invalid stack configuration in stacks/Pulumi.s.yaml"


def test_a_file_rewritten_within_the_clocks_tick_gets_its_new_lines(tmp_path: Path) -> None:
    """Same path, same modification time (a test's second write, an editor's quick save):
    the lines are the new text's."""
    path = tmp_path / "Pulumi.s.yaml"
    path.write_text(STACK)
    key = "trainstack:acceleration.component.version"
    assert key_line(path, key) == 5
    stamp = path.stat().st_mtime_ns
    path.write_text("# one line down\n" + STACK)
    os.utime(path, ns=(stamp, stamp))
    assert key_line(path, key) == 6
