"""Typer apps and commands that follow the command line's convention
(:mod:`trainstack.console.conventions`).

Every app of the command line is an :class:`App`: its groups are :class:`Group` and the
commands registered on it :class:`Command`, which

- answer ``-h`` as ``--help``;
- show every value by its metavar, upper case (an option without one shows its long name,
  ``--max-chars`` as ``MAX_CHARS``), in the usage line (``STACK``, ``[STACK]``,
  ``LOGFILE...``) and the help, never Typer's Python types (``stack <str>``,
  ``<list[Path]>``);
- read a renamed option's old spelling, with a warning, until the release that drops it,
  and stop a retired short flag with an error that says what to write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

from trainstack.console.conventions import (
    HELP_OPTION_NAMES,
    RENAMED,
    RETIRED,
    old_spelling_warning,
    retired_flag_error,
)
from trainstack.console.terminal import print_warning

if TYPE_CHECKING:
    from typer._click import Context, HelpFormatter, Parameter


def new_context_settings() -> dict[str, Any]:
    """Settings of every group's and command's context (a new dict: click keeps it)."""
    return {"help_option_names": list(HELP_OPTION_NAMES)}


class App(typer.Typer):
    """A ``typer.Typer`` whose groups are :class:`Group` and commands :class:`Command`."""

    def __init__(self, **settings: Any) -> None:
        settings.setdefault("cls", Group)
        # Plain help (click's formatter): reads the same in a pipe, no `--help <bool>`.
        settings.setdefault("rich_markup_mode", None)
        settings.setdefault("context_settings", new_context_settings())
        super().__init__(**settings)

    def command(
        self,
        name: str | None = None,
        *,
        cls: type[TyperCommand] | None = None,
        context_settings: dict[Any, Any] | None = None,
        **settings: Any,
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(
            name,
            cls=cls or Command,
            context_settings=context_settings or new_context_settings(),
            **settings,
        )


class Command(TyperCommand):
    """A command that follows the convention (see the module)."""

    def __init__(self, *args: Any, **settings: Any) -> None:
        super().__init__(*args, **settings)
        _name_values(self.params)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(usage_word(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if isinstance(param, TyperArgument):
                arguments.append((argument_word(param), record[1]))
            else:
                options.append(record)
        for title, records in (("Arguments", arguments), ("Options", options)):
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, current_spelling(ctx, args))


class Group(TyperGroup):
    """A group whose own options follow the convention (its commands are built apart)."""

    def __init__(self, *args: Any, **settings: Any) -> None:
        super().__init__(*args, **settings)
        _name_values(self.params)


def _name_values(params: list[Parameter]) -> None:
    """A metavar for every value that has none: its long option's name, or the
    argument's, upper case (Typer would show the Python type)."""
    for param in params:
        if param.metavar is not None:
            continue
        if isinstance(param, TyperArgument):
            param.metavar = (param.name or "value").upper()
        elif isinstance(param, TyperOption) and not (param.is_flag or param.count):
            longest = max(param.opts, key=len)
            param.metavar = longest.lstrip("-").replace("-", "_").upper()


def argument_word(argument: TyperArgument) -> str:
    """An argument as its help lists it: ``STACK``, ``LOGFILE...``."""
    word = argument.metavar or argument.name or "value"
    return f"{word}..." if argument.nargs != 1 else word


def usage_word(argument: TyperArgument) -> str:
    """An argument in the usage line: ``STACK``, ``[STACK]``, ``LOGFILE...``, ``[STACK]...``."""
    word = argument.metavar or argument.name or "value"
    shown = word if argument.required else f"[{word}]"
    return f"{shown}..." if argument.nargs != 1 else shown


def command_words(ctx: Context) -> str:
    """The command's words after the program's name: ``diff``, ``chart generate``."""
    words = []
    current: Context | None = ctx
    while current is not None and current.parent is not None:
        words.append(current.info_name or "")
        current = current.parent
    return " ".join(reversed(words))


def current_spelling(ctx: Context, args: list[str]) -> list[str]:
    """``args`` with each renamed option's old spelling replaced by the new (a warning on
    stderr for each); a retired short flag fails the command. Nothing after ``--``."""
    command = command_words(ctx)
    renamed = {item.old: item for item in RENAMED if item.command == command}
    retired = {item.flag: item for item in RETIRED if item.command == command}
    if not renamed and not retired:
        return args
    quiet = ctx.resilient_parsing  # shell completion: nothing printed, nothing refused
    spelled: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return [*spelled, *args[index:]]
        name, equals, value = arg.partition("=")
        if name in renamed:
            if not quiet:
                print_warning(old_spelling_warning(renamed[name]))
            arg = f"{renamed[name].new}{equals}{value}"
        elif not arg.startswith("--") and arg[:2] in retired and not quiet:
            ctx.fail(retired_flag_error(retired[arg[:2]]))
        spelled.append(arg)
    return spelled
