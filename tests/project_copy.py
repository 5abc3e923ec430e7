"""A throw-away copy of the project, and the trainstack command run on it as users run it."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.cli_helpers import run_process
from tests.stack_helpers import REPO
from trainstack.cli import main
from trainstack.core.yaml.io import dump_yaml, read_yaml

PROJECT_ENTRIES = ("Pulumi.yaml", "__main__.py", "components", "charts", "experiments", "stacks")


def copy_project(target: Path) -> Path:
    """The repository's project (program, chart, stacks, experiments) under ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_ENTRIES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target / name)
    return target


def edit_yaml(path: Path, change: Callable[[Any], None]) -> None:
    """Read ``path``, let ``change`` modify the document, write it back."""
    document = read_yaml(path)
    change(document)
    path.write_text(dump_yaml(document))


@dataclass(frozen=True)
class Outcome:
    """How a command ended."""

    status: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        """The ``error:`` lines on stderr."""
        return [line for line in self.stderr.splitlines() if line.startswith("error: ")]


def run_subprocess(args: list[str], cwd: Path, env: Mapping[str, str] | None = None) -> Outcome:
    """``python -m trainstack ARGS`` in ``cwd``, a process of its own (a hang fails the test)."""
    ran = run_process(cwd, *args, env=dict(env or {}))
    return Outcome(ran.code, ran.stdout, ran.stderr)


def run_in_process(args: list[str], cwd: Path, env: Mapping[str, str] | None = None) -> Outcome:
    """The console entry point itself, in this process (for inputs that cannot crash it)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    status = 0
    with (
        _environment(env or {}),
        _working_directory(cwd),
        _argv(["trainstack", *args]),
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
    ):
        try:
            main()
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
    return Outcome(status, stdout.getvalue(), stderr.getvalue())


def tree(directory: Path) -> dict[str, str | bytes]:
    """Every entry under ``directory``: file bytes, ``<dir>`` or ``-> target`` for links."""
    if not directory.exists():
        return {}
    entries: dict[str, str | bytes] = {}
    for path in sorted(directory.rglob("*")):
        if "__pycache__" in path.parts:
            continue  # Python's, when the program was imported
        key = str(path.relative_to(directory))
        if path.is_symlink():
            entries[key] = f"-> {os.readlink(path)}"
        elif path.is_dir():
            entries[key] = "<dir>"
        elif not path.is_file():
            entries[key] = "<fifo, device or socket>"  # never opened: it could block
        else:
            entries[key] = path.read_bytes()
    return entries


@contextlib.contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.pop("TRAINSTACK_DEBUG", None)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _working_directory(path: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


@contextlib.contextmanager
def _argv(args: list[str]) -> Iterator[None]:
    saved = sys.argv
    sys.argv = args
    try:
        yield
    finally:
        sys.argv = saved


def assert_refused(outcome: Outcome, expect: tuple[str, ...]) -> str:
    """Exit 2, exactly one line on stderr, ``error: ...`` with every fragment; no traceback."""
    assert "Traceback" not in outcome.stdout + outcome.stderr
    assert outcome.status == 2, outcome.stderr
    lines = outcome.stderr.splitlines()
    assert len(lines) == 1, lines
    (line,) = lines
    assert line.startswith("error: ")
    for fragment in expect:
        assert fragment in line, f"{fragment!r} not in {line!r}"
    return line
