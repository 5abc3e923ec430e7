"""Commands built by :class:`trainstack.console.commands.App`, on a small app of their own:
values shown by upper-case words, ``-h``, old spellings read and retired flags refused."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from trainstack.console import commands
from trainstack.console.commands import App
from trainstack.console.conventions import Renamed, Retired

tool = App(name="tool")
seen: dict[str, object] = {}


@tool.command("copy")
def copy(
    source: Annotated[Path, typer.Argument(help="What to copy.")],
    targets: Annotated[list[str] | None, typer.Argument(help="Where to.")] = None,
    max_chars: Annotated[int, typer.Option("--max-chars", "-U", help="A bound.")] = 3,
    only: Annotated[list[str] | None, typer.Option("--only", help="Only (repeatable).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="Say less.")] = False,
) -> None:
    seen.update(source=source, targets=targets, max_chars=max_chars, only=only, quiet=quiet)


@tool.command("other")
def other(count: Annotated[int, typer.Option("--count")] = 1) -> None:
    seen.update(count=count)


def _run(*args: str) -> typer.testing.Result:
    seen.clear()
    return CliRunner().invoke(tool, list(args), prog_name="tool")


def test_values_are_shown_by_upper_case_words_never_python_types() -> None:
    printed = _run("copy", "--help")
    assert printed.exit_code == 0
    assert printed.stdout.startswith("Usage: tool copy [OPTIONS] SOURCE [TARGETS]...\n")
    assert "\n  SOURCE      What to copy.  [required]\n" in printed.stdout
    assert "\n  TARGETS...  Where to.\n" in printed.stdout
    assert "-U, --max-chars MAX_CHARS  A bound.  [default: 3]" in printed.stdout
    assert "--only ONLY " in printed.stdout and "--quiet  " in printed.stdout
    assert "<" not in printed.stdout  # no <path>, <list[str]>, <int>


def test_h_is_help_in_the_group_and_its_commands() -> None:
    for args in ([], ["copy"], ["other"]):
        short, long = _run(*args, "-h"), _run(*args, "--help")
        assert (short.exit_code, short.stdout) == (0, long.stdout)
        assert "-h, --help" in short.stdout


@pytest.fixture()
def renamed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        commands, "RENAMED", (Renamed("copy", "--max", "--max-chars", "9.9.9", "clearer"),)
    )
    monkeypatch.setattr(commands, "RETIRED", (Retired("copy", "-m", "--max-chars"),))


@pytest.mark.usefixtures("renamed")
@pytest.mark.parametrize("spelled", [["--max", "7"], ["--max=7"]])
def test_an_old_spelling_is_read_with_a_warning(spelled: list[str]) -> None:
    ran = _run("copy", "a", *spelled)
    assert (ran.exit_code, seen["max_chars"]) == (0, 7)
    assert ran.stderr == (
        "warning: `trainstack copy --max` is now --max-chars (clearer); --max stops working "
        "in 9.9.9\n"
    )


@pytest.mark.usefixtures("renamed")
def test_old_spellings_are_read_only_in_their_command_and_before_a_double_dash() -> None:
    ran = _run("copy", "a", "--", "--max")
    assert (ran.exit_code, seen["targets"], ran.stderr) == (0, ["--max"], "")
    ran = _run("other", "--max", "2")
    assert ran.exit_code == 2 and "No such option: --max" in ran.stderr


@pytest.mark.usefixtures("renamed")
@pytest.mark.parametrize("spelled", [["-m", "7"], ["-m7"]])
def test_a_retired_flag_is_an_error_that_says_what_to_write(spelled: list[str]) -> None:
    ran = _run("copy", "a", *spelled)
    assert ran.exit_code == 2 and seen == {}
    assert (
        "Error: -m is no longer short for --max-chars in `trainstack copy` (it is gone): "
        "write --max-chars" in ran.stderr
    )


@pytest.mark.usefixtures("renamed")
def test_completion_reads_old_spellings_silently(capsys: pytest.CaptureFixture[str]) -> None:
    """Shell completion parses the line typed so far: no warning, no error in the way."""
    group = typer.main.get_command(tool)
    parent = group.make_context("tool", ["copy"], resilient_parsing=True)
    context = group.commands["copy"].make_context(
        "copy", ["a", "--max", "7", "-m"], parent=parent, resilient_parsing=True
    )
    assert context.params["max_chars"] == 7
    assert capsys.readouterr() == ("", "")
