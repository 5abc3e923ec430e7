"""The README's quick start works: its commands run, in order, in a copy of the project
(a git repository of its own, committed once), and print what the README shows.

The commands are the ``$ `` lines of the ``console`` blocks of the "Quick start" section,
each run by bash in the copy; ``.venv/bin/trainstack`` there is this interpreter's
trainstack (``make install`` is the set-up, not run). After each command come the lines
it prints (stdout and stderr, as a terminal shows them), checked like a doctest: each line
shown must be printed, in order and next to the one before it; a line ``...`` stands for
any number of lines, and a line ending in `` ...`` for any line that starts with what
precedes it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_helpers import venv_launcher
from tests.diff.plan_dirs import copy_project, init_repo
from tests.stack_helpers import REPO

pytestmark = pytest.mark.slow  # left out of `make test-fast`

README = REPO / "README.md"
ELLIPSIS = "..."


@dataclass(frozen=True)
class Step:
    """A command of the quick start and the lines the README shows for it."""

    command: str
    shown: tuple[str, ...]


def quick_start(text: str) -> list[Step]:
    """The quick start's commands, in order, with their lines."""
    section = text[text.index("\n## Quick start") :]
    section = section[: section.index("\n## ", 1)]
    steps: list[Step] = []
    for block in re.findall(r"(?ms)^```console\n(.*?)^```$", section):
        command: str | None = None
        shown: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    steps.append(Step(command, tuple(shown)))
                command, shown = line[2:], []
            else:
                assert command is not None, f"output before any command: {line!r}"
                shown.append(line)
        if command is not None:
            steps.append(Step(command, tuple(shown)))
    return steps


def mismatch(shown: tuple[str, ...], printed: list[str]) -> str | None:
    """Why ``printed`` is not what ``shown`` says (``None``: it is)."""
    position, gap = 0, False
    for expected in shown:
        if expected == ELLIPSIS:
            gap = True
            continue
        candidates = range(position, len(printed)) if gap else range(position, position + 1)
        found = next(
            (i for i in candidates if i < len(printed) and _fits(expected, printed[i])), None
        )
        if found is None:
            where = "after" if gap else "at"
            return f"{expected!r} not printed {where} line {position + 1}"
        position, gap = found + 1, False
    if not gap and position != len(printed):
        return f"more lines printed than shown, from line {position + 1}: {printed[position]!r}"
    return None


def _fits(expected: str, line: str) -> bool:
    if expected.endswith(" " + ELLIPSIS):
        return line.startswith(expected[: -len(ELLIPSIS) - 1])
    return line == expected


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The project, a git repository of its own, with the sample logs and a .venv/bin/trainstack."""
    root = copy_project(tmp_path / "project", ("imagenet", "aiacc", "baseline", "onprem"))
    shutil.copytree(REPO / "examples", root / "examples")
    (root / ".gitignore").write_text(".venv/\nbuild/\n")
    init_repo(root)
    venv_launcher(root)
    return root


def test_the_quick_start_is_read_as_commands_and_lines() -> None:
    steps = quick_start(README.read_text(encoding="utf-8"))
    commands = [step.command.split()[0] for step in steps]
    assert commands.count(".venv/bin/trainstack") >= 5 and set(commands) <= {
        ".venv/bin/trainstack",
        "sed",
        "git",
    }
    assert mismatch(("a", ELLIPSIS, "c ..."), ["a", "b", "c d"]) is None
    assert mismatch(("a", "c"), ["a", "b", "c"]) == "'c' not printed at line 2"
    assert mismatch(("a",), ["a", "b"]) == "more lines printed than shown, from line 2: 'b'"


def test_the_quick_start_prints_what_the_readme_shows(project: Path) -> None:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("TRAINSTACK_")
    }
    for step in quick_start(README.read_text(encoding="utf-8")):
        done = subprocess.run(
            ["bash", "-c", step.command],
            cwd=project,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # one stream, in the order a terminal shows them
            text=True,
            timeout=300,
            check=False,
        )
        printed = done.stdout.splitlines()
        problem = mismatch(step.shown, printed)
        assert problem is None, (
            f"README quick start, `$ {step.command}`: {problem}\nprinted:\n" + "\n".join(printed)
        )
