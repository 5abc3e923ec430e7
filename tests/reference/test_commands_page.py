"""docs/reference/commands.md: every command, with exactly what its --help prints."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from trainstack.cli import app
from trainstack.reference.commands_page import commands_page

ROOT = typer.main.get_command(app)
PAGE = commands_page(ROOT)


def _paths(command: typer.core.TyperGroup, path: tuple[str, ...]) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in getattr(command, "commands", {}).items():
        found += _paths(sub, (*path, name))
    return found


COMMANDS = _paths(ROOT, ())


def test_every_command_has_a_section() -> None:
    headings = re.findall(r"(?m)^#+ `(trainstack[^`]*)`$", PAGE)
    assert headings == [" ".join(("trainstack", *path)) for path in COMMANDS]
    assert {"trainstack plan", "trainstack diff", "trainstack results compare"} <= set(headings)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda path: " ".join(path) or "trainstack")
def test_each_section_is_what_help_prints_at_80_columns(path: tuple[str, ...]) -> None:
    printed = CliRunner().invoke(
        app, [*path, "--help"], prog_name="trainstack", env={"COLUMNS": "80"}
    )
    assert printed.exit_code == 0
    heading = f"`{' '.join(('trainstack', *path))}`\n\n```text\n"
    section = PAGE[PAGE.index(heading) + len(heading) :]
    assert section[: section.index("\n```\n")] == printed.output.rstrip()
