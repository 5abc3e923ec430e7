"""Where and how commands print: results on stdout, warnings and errors on stderr.

Output that reads well anywhere:

- on a terminal, rich wraps to the terminal's width and colours a few things (``error:``
  red, ``warning:`` yellow, diff lines); numbers and paths are never highlighted;
- anywhere else (a pipe, a file, a CI log) nothing is cut or wrapped: tables and lines
  are as wide as their content, so ``trainstack plan aiacc | cat`` carries whole names;
- colour only on a terminal, and never when ``NO_COLOR`` is set to anything but the
  empty string (https://no-color.org).
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console

from trainstack.console.safe_text import terminal_line
from trainstack.core.errors import TrainstackError
from trainstack.core.yaml.positions import at

# Not a terminal: as wide as the widest line could be (rich needs a number).
UNBOUNDED_WIDTH = 1_000_000


def colour_wanted(stream: TextIO) -> bool:
    """Colours only when ``stream`` is a terminal and ``NO_COLOR`` is unset or empty."""
    return _is_terminal(stream) and not os.environ.get("NO_COLOR")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def console(stream: TextIO | None = None) -> Console:
    """A rich console for ``stream`` (default stdout) following the rules above."""
    target = stream if stream is not None else sys.stdout
    terminal = _is_terminal(target)
    return Console(
        file=target,
        force_terminal=terminal,
        no_color=not colour_wanted(target),
        color_system="auto" if colour_wanted(target) else None,
        width=None if terminal else UNBOUNDED_WIDTH,
        soft_wrap=not terminal,
        highlight=False,
        markup=False,
        emoji=False,
    )


def stderr_console() -> Console:
    """The console for warnings and errors."""
    return console(sys.stderr)


def print_warning(text: str, err: Console | None = None) -> None:
    """``warning: text`` on stderr (yellow on a terminal)."""
    _labelled("warning", "yellow", text, err)


def print_error(text: str, err: Console | None = None) -> None:
    """``error: text`` on stderr (red on a terminal)."""
    _labelled("error", "bold red", text, err)


def print_user_error(error: TrainstackError, err: Console | None = None) -> None:
    """Every line of a user's error, each as ``error: ...``, with ``file:LINE`` where the
    key a problem names is written in its file (the error itself reads no file)."""
    err = err or stderr_console()
    for line in error.lines(at):
        print_error(line, err)


def _labelled(label: str, style: str, text: str, err: Console | None) -> None:
    from rich.text import Text

    # Only the label is coloured: the message is read, the label found.
    line = Text()
    line.append(f"{label}:", style=style)
    line.append(f" {terminal_line(text)}")
    (err or stderr_console()).print(line)
