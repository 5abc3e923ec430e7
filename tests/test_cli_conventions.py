"""Every command and option of the real command tree follows the command line's one
convention (:mod:`trainstack.console.conventions`, documented in
docs/reference/commands.md#conventions).

Each test walks the tree ``trainstack`` runs and lists every violation with what to
change, so a command added later is held to the convention the day it is wired.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from trainstack.cli import app
from trainstack.console.conventions import (
    METAVAR_PATTERN,
    RENAMED,
    RETIRED,
    SHORT_FLAGS,
    TAKES_BY_NAME,
    TAKES_BY_SUFFIX,
)

ROOT = typer.main.get_command(app)
CONVENTION = "docs/reference/commands.md#conventions"
CONVENTIONS_MODULE = "trainstack/console/conventions.py"


@dataclass(frozen=True)
class Found:
    """One command of the tree, with the context its help is printed in."""

    path: tuple[str, ...]
    command: Any
    context: Any

    @property
    def name(self) -> str:
        return " ".join(("trainstack", *self.path))

    def params(self) -> list[Any]:
        return list(self.command.get_params(self.context))

    def options(self) -> list[Any]:
        return [p for p in self.params() if p.param_type_name == "option"]

    def values(self) -> list[Any]:
        """Arguments, and options that take a value."""
        return [
            p
            for p in self.params()
            if not (getattr(p, "is_flag", False) or getattr(p, "count", False))
        ]


def _walk(command: Any, path: tuple[str, ...], parent: Any) -> Iterator[Found]:
    name = path[-1] if path else "trainstack"
    context = command.context_class(
        command, info_name=name, parent=parent, **command.context_settings
    )
    yield Found(path, command, context)
    for sub_name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, sub_name), context)


COMMANDS = list(_walk(ROOT, (), None))
OPTIONS = [(found, option) for found in COMMANDS for option in found.options()]
"""Every option of every command, with its command."""


def _long(option: Any) -> str:
    longs = [o for o in option.opts if o.startswith("--")]
    return longs[0] if longs else option.opts[0]


def _shorts(option: Any) -> list[str]:
    return [o for o in [*option.opts, *option.secondary_opts] if not o.startswith("--")]


def _takes(param: Any) -> str:
    return "a flag" if getattr(param, "is_flag", False) else str(param.metavar)


def _report(problems: list[str]) -> str:
    return f"{len(problems)} violation(s) of {CONVENTION}:\n" + "\n".join(
        f"- {line}" for line in problems
    )


def test_the_walk_reaches_every_command() -> None:
    names = {found.name for found in COMMANDS}
    assert {"trainstack", "trainstack plan", "trainstack logs", "trainstack chart render"} <= names
    assert {"trainstack results report", "trainstack docs check"} <= names


@pytest.mark.parametrize("found", COMMANDS, ids=lambda found: found.name)
def test_h_is_help(found: Found) -> None:
    runner = CliRunner()
    short = runner.invoke(app, [*found.path, "-h"], prog_name="trainstack")
    long = runner.invoke(app, [*found.path, "--help"], prog_name="trainstack")
    assert (short.exit_code, short.output) == (long.exit_code, long.output), (
        f"`{found.name} -h` must print what --help prints: create the app with "
        "trainstack.console.commands.App (its context_settings make -h --help)\n" + short.output
    )


def test_a_long_option_takes_one_kind_of_value_everywhere() -> None:
    takes: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for found, option in OPTIONS:
        for name in [o for o in [*option.opts, *option.secondary_opts] if o.startswith("--")]:
            takes[name][_takes(option)].append(found.name)
    problems = []
    for name, kinds in sorted(takes.items()):
        if len(kinds) > 1:
            listed = "; ".join(f"{kind} in {', '.join(where)}" for kind, where in kinds.items())
            problems.append(
                f"{name} takes {listed}: one long option means one thing everywhere; give "
                f"each the same metavar if they mean the same, else rename one (the old "
                f"spelling goes in RENAMED, {CONVENTIONS_MODULE})"
            )
    assert not problems, _report(problems)


def test_output_and_dir_options_take_what_their_name_says() -> None:
    problems = []
    for found, option in OPTIONS:
        name = _long(option)
        wanted = TAKES_BY_NAME.get(name) or next(
            (word for end, word in TAKES_BY_SUFFIX.items() if name.endswith(end)), None
        )
        if wanted is not None and option.metavar != wanted:
            problems.append(
                f"`{found.name} {name}` takes {_takes(option)}: {name} takes {wanted} "
                f"(--output a FILE, --output-dir and every --*-dir a DIR, every --*-file "
                f'a FILE): give it metavar="{wanted}", or a name that says what it takes'
            )
    assert not problems, _report(problems)


def _short_flag_problems(found: Found, option: Any) -> Iterator[str]:
    name, shorts = _long(option), _shorts(option)
    if not name.startswith("--"):
        yield f"`{found.name} {name}` has no long name: add one"
    for short in shorts:
        meant = SHORT_FLAGS.get(short)
        if meant is None:
            yield (
                f"`{found.name} {name}` has {short}, which is not in SHORT_FLAGS "
                f"({CONVENTIONS_MODULE}): drop {short}, or add '{short}': '{name}' there "
                f"if {short} is to mean {name} in every command"
            )
        elif meant != name:
            yield (
                f"`{found.name} {name}` has {short}, which stands for {meant} "
                f"(SHORT_FLAGS, {CONVENTIONS_MODULE}): drop {short} from {name}"
            )
    for short, meant in SHORT_FLAGS.items():
        if meant == name and short not in shorts:
            fix = (
                "create the app with trainstack.console.commands.App"
                if name == "--help"
                else f'typer.Option("{name}", "{short}", ...)'
            )
            yield f"`{found.name} {name}` lacks {short}, as every {name}: {fix}"


def test_a_short_flag_stands_for_one_long_option_everywhere() -> None:
    problems = [line for found, option in OPTIONS for line in _short_flag_problems(found, option)]
    assert not problems, _report(problems)


def test_values_are_shown_by_upper_case_metavars() -> None:
    problems = []
    for found in COMMANDS:
        for param in found.values():
            shown = param.metavar
            if shown is None or METAVAR_PATTERN.fullmatch(shown) is None:
                where = _long(param) if param.param_type_name == "option" else param.name
                problems.append(
                    f"`{found.name}` {param.param_type_name} {where} is shown as "
                    f"{shown!r}: give it an upper-case metavar (DIR, FILE, STACK, N, "
                    f"SECONDS, KEY=VALUE); a command built by trainstack.console.commands."
                    "App shows one for every value"
                )
    assert not problems, _report(problems)


TYPE_LEAK = re.compile(
    r"<[a-z][^<>\n]*>|\[default: (?:None|\[\]|\(\))[;\]]|PosixPath\(|<enum |\b[A-Z_]+ <"
)
"""What Typer prints for a Python type: ``<str>``, ``<list[str]>``, ``<float range>``,
``STACK <str>``, ``[default: None]``; and lower-case placeholders (``<stack>/x``), which
read as the same."""


@pytest.mark.parametrize("found", COMMANDS, ids=lambda found: found.name)
def test_help_names_no_python_type(found: Found) -> None:
    printed = found.command.get_help(found.context)
    leaks = sorted({match.group(0) for match in TYPE_LEAK.finditer(printed)})
    assert not leaks, (
        f"`{found.name} --help` shows {leaks}: give each value an upper-case metavar, "
        f"write placeholders in upper case (STACK/resources.json), and create the app with "
        f"trainstack.console.commands.App\n{printed}"
    )


DEFAULT = re.compile(r"\[default: ([^;\]]*)[;\]]")


def _help(found: Found, option: Any) -> str:
    record = option.get_help_record(found.context)
    return record[1] if record else ""


def _default_problem(found: Found, option: Any) -> str | None:
    printed = DEFAULT.search(_help(found, option))
    if printed is None:
        return None
    where, text = f"`{found.name} {_long(option)}`", printed.group(1)
    if option.is_flag:
        return (
            f"{where} prints [default: {text}], not an option a user types: "
            "show_default=False, and say in its help which is the default"
        )
    read = option.process_value(found.context, text.split(", ") if option.multiple else text)
    if read != option.default:
        return (
            f"{where} prints [default: {text}], which reads as {read!r}, not the default "
            f"{option.default!r}: print the value a user would type"
        )
    return None


def test_printed_defaults_read_back_as_the_default() -> None:
    problems = [
        problem
        for found, option in OPTIONS
        if (problem := _default_problem(found, option)) is not None
    ]
    assert not problems, _report(problems)
    printed = [option for found, option in OPTIONS if DEFAULT.search(_help(found, option))]
    assert len(printed) >= 10  # the walk did read the defaults


def test_repeatable_options_say_so() -> None:
    problems = [
        f"`{found.name} {_long(option)}` can be repeated: its help says '(repeatable)'"
        for found, option in OPTIONS
        if option.multiple and "repeatable" not in (option.help or "")
    ]
    assert not problems, _report(problems)


def test_choices_are_named_in_the_help() -> None:
    """The metavar (FORMAT) hides the choices: the help names each one."""
    problems, checked = [], 0
    for found, param in [(each, param) for each in COMMANDS for param in each.params()]:
        choices = [str(getattr(c, "value", c)) for c in param.type_descriptor.choices or ()]
        checked += bool(choices)
        missing = [c for c in choices if not re.search(rf"\b{re.escape(c)}\b", param.help or "")]
        if missing:
            problems.append(
                f"`{found.name}` {param.name}: its help does not name {missing} (of {choices})"
            )
    assert checked >= 5  # the --format and --rule options were read
    assert not problems, _report(problems)


def _command(words: str) -> Found:
    return next(found for found in COMMANDS if " ".join(found.path) == words)


@pytest.mark.parametrize("renamed", RENAMED, ids=lambda item: f"{item.command} {item.old}")
def test_a_renamed_option_is_read_under_its_old_spelling(renamed: Any) -> None:
    found = _command(renamed.command)
    options = {o for option in found.options() for o in [*option.opts, *option.secondary_opts]}
    assert renamed.new in options and renamed.old not in options
    takes_value = not next(o for o in found.options() if renamed.new in o.opts).is_flag
    ran = CliRunner().invoke(
        app, [*found.path, renamed.old, *(["1"] if takes_value else []), "--help"]
    )
    assert ran.exit_code == 0, ran.output
    assert not re.search(rf"(?<![\w-]){renamed.old}(?![\w-])", ran.stdout)  # in no help
    assert f"is now {renamed.new}" in ran.stderr and renamed.dropped_in in ran.stderr


@pytest.mark.parametrize("retired", RETIRED, ids=lambda item: f"{item.command} {item.flag}")
def test_a_retired_short_flag_is_an_error_that_says_what_to_write(retired: Any) -> None:
    found = _command(retired.command)
    assert retired.flag not in {o for option in found.options() for o in option.opts}
    for args in ([retired.flag, "markdown"], [f"{retired.flag}markdown"]):
        ran = CliRunner().invoke(app, [*found.path, *args, "--help"])
        assert ran.exit_code == 2, ran.output
        assert f"write {retired.was}" in ran.stderr
