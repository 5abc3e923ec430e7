"""``--format text``: the summary, then one unified diff per changed object.

The same lines are written plain when stdout is not a terminal (byte-identical from run
to run, fit for logs and files) and coloured with rich when it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

from trainstack.diff.masked import config_note, object_notes
from trainstack.diff.model import StackDiff
from trainstack.diff.warnings import warning_lines

StyledLine = tuple[str, str]

_DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


DATA_LOSS_TITLE = (
    "DATA AT RISK: {count} data-bearing resource(s) deleted or replaced; approve "
    "deliberately (exit status 3)"
)


def text_lines(diffs: Sequence[StackDiff]) -> list[StyledLine]:
    """Every line of the report with the style it gets in a terminal.

    Deletions and replacements of data-bearing resources come first, in a section of
    their own (red in a terminal), before any stack's summary.
    """
    lines = data_loss_lines(diffs)
    if lines:
        lines.append(("", ""))
    for index, stack_diff in enumerate(diffs):
        if index:
            lines.append(("", ""))
        lines.extend(_stack_lines(stack_diff))
    return lines


def data_loss_lines(diffs: Sequence[StackDiff]) -> list[StyledLine]:
    """The data-at-risk section (empty when nothing holding data is deleted or replaced)."""
    risks = [(d, risk) for d in diffs for risk in d.data_risks]
    if not risks:
        return []
    lines: list[StyledLine] = [(DATA_LOSS_TITLE.format(count=len(risks)), "bold red")]
    lines += [(f"  {d.title}: {risk}", "red") for d, risk in risks]
    return lines


def _stack_lines(stack_diff: StackDiff) -> list[StyledLine]:
    lines: list[StyledLine] = [
        (f"trainstack diff {stack_diff.title}: {stack_diff.summary()}", "bold")
    ]
    width = max((len(item.status) for item in stack_diff.shown), default=0)
    for item in stack_diff.shown:
        lines.append((f"  {item.status:<{width}}  {item.key.label}", _STATUS_STYLE[item.status]))
    lines += [(config_note(change), "yellow") for change in stack_diff.config_changes]
    lines += [(f"note: {note}", "yellow") for note in stack_diff.notes]
    lines += warning_lines(stack_diff)
    for item in stack_diff.shown:
        lines.append(("", ""))
        lines += [(line, _diff_style(line)) for line in item.diff_lines]
        lines += [(f"masked {note}", "yellow") for note in object_notes(item)]
    return lines


_STATUS_STYLE = {"added": "green", "removed": "red", "changed": "yellow", "unchanged": ""}


def _diff_style(line: str) -> str:
    return next((style for prefix, style in _DIFF_STYLES if line.startswith(prefix)), "")


def write_lines(lines: Sequence[StyledLine], stream: TextIO, colour: bool) -> None:
    """Plain text, or rich's colours when ``colour`` (a terminal)."""
    if not colour:
        stream.write("".join(f"{line}\n" for line, _ in lines))
        return
    console = Console(
        file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False, markup=False
    )
    for line, style in lines:
        console.print(Text(line, style=style))
