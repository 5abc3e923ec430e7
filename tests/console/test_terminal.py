"""Output that reads well anywhere: whole lines off a terminal, colour only on one.

The processes run as users run them: with stdout a pipe (``trainstack plan aiacc | cat``)
and with stderr a pseudo-terminal (``pty``), so that the decision is each stream's own.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from rich.table import Table

from tests.cli_helpers import Ran, run_process
from tests.project_copy import copy_project
from tests.stack_helpers import REPO
from trainstack.console.terminal import (
    colour_wanted,
    console,
    print_error,
    print_user_error,
    print_warning,
)
from trainstack.core.errors import ConfigError, Problem
from trainstack.core.files import read_source

ESCAPE = "\x1b["
YELLOW_WARNING = "\x1b[33mwarning:\x1b[0m"
RED_ERROR = "\x1b[1;31merror:\x1b[0m"
LONG = "imagenet-tensorflow-" + "x" * 150

SCRATCH = """\
name: scratch-model
team: nlp
job:
  framework: tensorflow
  image: {name: kubeflow/tf-mnist:1.0}
  command:
    - python
    - /mnist.py
    - --model-dir
    - /models/scratch
  worker: {replicas: 1, gpus: 0}
"""
SCRATCH_LINE = 9
"""The line of ``job.command[2]`` (``--model-dir``) in SCRATCH, counted by hand."""
SCRATCH_WARNING = (
    f"warning: experiments/scratch-model.yaml:{SCRATCH_LINE}: experiment scratch-model: "
    "job.command[2]: --model-dir /models/scratch: the job writes there, but no volume is "
    "mounted at or above it (the job mounts no writable volume): what it writes is lost "
    "with the pods; mount a claim there (job.results {claimName, mountPath}, a dataset of "
    "the stack) or write under a mounted path [unbackedWrite]"
)
SCRATCH_HINT = (
    "  to acknowledge it: add {warning: unbackedWrite, key: job.command[2], reason: <why it "
    "is meant>} to experiments/scratch-model.yaml: acknowledge (every stack), or {warning: "
    "unbackedWrite, experiment: scratch-model, key: job.command[2], reason: <why it is "
    "meant>} to stacks/Pulumi.aiacc.yaml: trainstack:acknowledge (this stack)"
)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _environment(**changes: str) -> dict[str, str]:
    """The test's environment without what decides colour, plus ``changes``."""
    kept = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR"}}
    return {**kept, "TERM": "xterm-256color", "PYTHONPATH": str(REPO), **changes}


def _with_stderr_on_a_terminal(root: Path, *args: str, env: dict[str, str]) -> Ran:
    """``python -m trainstack ARGS`` with stdout a pipe and stderr a pseudo-terminal."""
    primary, secondary = pty.openpty()
    # 100 columns, so that wrapping on the terminal is predictable
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "trainstack", *args],
        cwd=root,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=secondary,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: every writer of the terminal is gone
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    stdout, _ = process.communicate(timeout=60)
    # A terminal turns each "\n" into "\r\n".
    stderr = b"".join(chunks).decode().replace("\r\n", "\n")
    return Ran(process.returncode, stdout.decode(), stderr)


@pytest.fixture(scope="module")
def warned_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project with one more experiment on aiacc, which writes its model nowhere."""
    root = copy_project(tmp_path_factory.mktemp("terminal") / "project")
    # aiacc selects it without an edit: its selection is the pattern '*' (minus '*-onprem')
    (root / "experiments" / "scratch-model.yaml").write_text(SCRATCH)
    return root


def test_off_a_terminal_nothing_is_cut_wrapped_or_coloured() -> None:
    stream = io.StringIO()
    table = Table("experiment", "GPUs")
    table.add_row(LONG, "16")
    out = console(stream)
    out.print(table)
    out.print("word " * 100)
    printed = stream.getvalue()
    assert "…" not in printed and ESCAPE not in printed
    assert f"│ {LONG} │ 16   │" in printed.splitlines()
    assert ("word " * 100).rstrip() in [line.rstrip() for line in printed.splitlines()]


@pytest.mark.parametrize(
    ("terminal", "no_color", "wanted"),
    [(True, None, True), (True, "", True), (True, "1", False), (False, None, False)],
)
def test_colour_only_on_a_terminal_and_never_under_no_color(
    monkeypatch: pytest.MonkeyPatch, terminal: bool, no_color: str | None, wanted: bool
) -> None:
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    stream = _Terminal() if terminal else io.StringIO()
    assert colour_wanted(stream) is wanted
    print_warning("the job writes nowhere [unbackedWrite]", console(stream))
    print_error("stack 'x' has no configuration file", console(stream))
    printed = stream.getvalue().splitlines()
    if wanted:
        assert printed[0] == f"{YELLOW_WARNING} the job writes nowhere [unbackedWrite]"
        assert printed[1] == f"{RED_ERROR} stack 'x' has no configuration file"
    else:
        assert printed == [
            "warning: the job writes nowhere [unbackedWrite]",
            "error: stack 'x' has no configuration file",
        ]


def test_piped_plan_carries_whole_names_and_whole_warnings(
    warned_project: Path, tmp_path: Path
) -> None:
    """``COLUMNS=40 trainstack plan aiacc --verbose | cat``: a narrow COLUMNS wraps nothing
    in a pipe (the verbose summary: the grouped one wraps at 100 columns itself)."""
    ran = run_process(
        warned_project, "plan", "aiacc", "-o", str(tmp_path), "--verbose", env={"COLUMNS": "40"}
    )
    assert ran.code == 0, ran.stderr
    # Warnings on stderr, each on one line, with the file's line number.
    assert ran.stderr.splitlines() == [SCRATCH_WARNING, SCRATCH_HINT]
    assert "warning" not in ran.stdout and "…" not in ran.stdout
    rows = [line for line in ran.stdout.splitlines() if line.startswith("│ ")]
    # Every experiment's row whole (the experiment column as wide as its longest name).
    for name in ("imagenet-tensorflow ", "scratch-model       ", "tf-multiworker-mnist"):
        assert any(row.startswith(f"│ {name} │ ") for row in rows), name
    acknowledged = [line for line in ran.stdout.splitlines() if line.startswith("acknowledged:")]
    assert [line.endswith("(the cohort exists for this))") for line in acknowledged] == [
        True,
        False,
    ]
    assert ran.stdout.endswith(f"plan written to {tmp_path}/aiacc\n")


def test_warnings_are_coloured_on_a_terminal_the_piped_output_is_not(
    warned_project: Path, tmp_path: Path
) -> None:
    ran = _with_stderr_on_a_terminal(
        warned_project, "plan", "aiacc", "-o", str(tmp_path), env=_environment()
    )
    assert ran.code == 0, ran.stderr
    assert ran.stderr.startswith(f"{YELLOW_WARNING} experiments/scratch-model.yaml:")
    # The terminal's 100 columns wrap the warning, between words.
    words = " ".join(ran.stderr.replace(YELLOW_WARNING, "warning:").split())
    assert words == f"{SCRATCH_WARNING} {' '.join(SCRATCH_HINT.split())}"
    assert ESCAPE not in ran.stdout and "scratch-model" in ran.stdout


@pytest.mark.parametrize("no_color", ["1", "yes"])
def test_no_color_turns_colour_off_on_a_terminal(no_color: str) -> None:
    ran = _with_stderr_on_a_terminal(REPO, "plan", "aiac", env=_environment(NO_COLOR=no_color))
    assert ran.code == 2
    assert ESCAPE not in ran.stderr
    assert ran.stderr.startswith("error: stack 'aiac' has no configuration file")


def test_errors_are_red_on_a_terminal() -> None:
    ran = _with_stderr_on_a_terminal(REPO, "plan", "aiac", env=_environment())
    assert ran.code == 2
    assert ran.stderr.startswith(f"{RED_ERROR} stack 'aiac' has no configuration file")


def test_a_users_error_is_printed_with_the_line_of_each_key(tmp_path: Path) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text("config:\n  trainstack:a: 1\n  trainstack:b: 2\n")
    error = ConfigError(
        "stack.yaml",
        [Problem("trainstack:b", "2", "text"), Problem("trainstack:c", "3", "text")],
        read_source(path, "stack.yaml").files,
    )
    out = io.StringIO()
    print_user_error(error, console(out))
    assert out.getvalue().splitlines() == [
        "error: invalid stack configuration in stack.yaml:3: trainstack:b: found 2; allowed: text",
        "error: invalid stack configuration in stack.yaml: trainstack:c: found 3; allowed: text",
    ]
