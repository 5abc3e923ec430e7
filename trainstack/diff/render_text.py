"""``--format text``: the summary, then one unified diff per changed object.

The same lines are written plain when stdout is not a terminal (byte-identical from run
to run, fit for logs and files) and coloured with rich when it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TextIO

from rich.console import Console
from rich.text import Text

from trainstack.console.safe_text import terminal_line
from trainstack.cost.render_diff import Compared, cost_text
from trainstack.diff.capacity import capacity_lines
from trainstack.diff.masked import config_note, object_notes
from trainstack.diff.model import DataRisk, NotApplied, ReviewedWarning, StackDiff, WarningChanges

StyledLine = tuple[str, str]
Group = Literal["new", "gone", "unchanged", "acknowledged"]

_DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


DATA_LOSS_TITLE = (
    "DATA AT RISK: {count} data-bearing resource(s) deleted or replaced; approve "
    "deliberately (exit status 3)"
)
NOT_APPLIED_TITLE = (
    "NOT APPLIED: {count} resource(s) with changed inputs read at creation only; `pulumi up` "
    "reports success and the running resource keeps its old settings"
)


def text_lines(diffs: Sequence[StackDiff]) -> list[StyledLine]:
    """Every line of the report with the style it gets in a terminal.

    Deletions and replacements of data-bearing resources come first, in a section of
    their own (red in a terminal), then the changes that will not be applied (yellow),
    before any stack's summary.
    """
    lines: list[StyledLine] = []
    for section in (data_loss_lines(diffs), not_applied_lines(diffs)):
        if section:
            lines += [*section, ("", "")]
    for index, stack_diff in enumerate(diffs):
        if index:
            lines.append(("", ""))
        lines.extend(_stack_lines(stack_diff))
    cost = cost_text(cost_pairs(diffs))
    if cost:
        lines.append(("", ""))
        lines += [(line, "bold yellow" if "OVER BUDGET" in line else "") for line in cost]
    return lines


def cost_pairs(diffs: Sequence[StackDiff]) -> list[Compared]:
    """(before label, after label, cost) of each comparison that recorded a cost."""
    return [(d.before_label, d.after_label, d.cost) for d in diffs if d.cost is not None]


def data_loss_lines(diffs: Sequence[StackDiff]) -> list[StyledLine]:
    """The data-at-risk section (empty when nothing holding data is deleted or replaced)."""
    return _section(DATA_LOSS_TITLE, [(d, r) for d in diffs for r in d.data_risks], "red")


def not_applied_lines(diffs: Sequence[StackDiff]) -> list[StyledLine]:
    """The not-applied section (empty when no input read at creation only changed)."""
    return _section(NOT_APPLIED_TITLE, [(d, n) for d in diffs for n in d.not_applied], "yellow")


def _section(
    title: str, found: Sequence[tuple[StackDiff, DataRisk | NotApplied]], style: str
) -> list[StyledLine]:
    """``title`` (with its count) in bold, then one line per item with its pair of stacks."""
    if not found:
        return []
    lines: list[StyledLine] = [(title.format(count=len(found)), f"bold {style}")]
    return lines + [(f"  {d.title}: {item}", style) for d, item in found]


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
    lines += [
        (line, "bold yellow" if "idle" in line else "")
        for line in capacity_lines(stack_diff.capacity)
    ]
    for item in stack_diff.shown:
        lines.append(("", ""))
        lines += [(line, _diff_style(line)) for line in item.diff_lines]
        lines += [(f"masked {note}", "yellow") for note in object_notes(item)]
    return lines


def warning_lines(stack_diff: StackDiff) -> list[StyledLine]:
    """The text report's lines for one stack: counts, then each warning, new ones first."""
    changes = stack_diff.warnings
    if changes is None or not changes.any:
        return []
    lines: list[StyledLine] = [(f"warnings: {warning_counts(changes)}", "bold")]
    listed = listed_warnings(changes)
    width = max((len(label) for _, label, _ in listed), default=0)
    for group, label, warning in listed:
        lines.append((f"  {label:<{width}}  {warning}", _STYLE[group]))
    lines += selection_lines(changes)
    lines += [(f"note: {note}", "yellow") for note in changes.notes]
    return lines


_STYLE: dict[Group, str] = {
    "new": "bold yellow",
    "gone": "green",
    "unchanged": "yellow",
    "acknowledged": "",
}


def listed_warnings(changes: WarningChanges) -> list[tuple[Group, str, ReviewedWarning]]:
    """(group, label, warning): new, gone, newly acknowledged, unchanged, acknowledged."""
    return [
        *(("new", "new", w) for w in changes.new),
        *(("gone", "gone", w) for w in changes.gone),
        *(("acknowledged", "newly acknowledged", w) for w, fresh in changes.acknowledged if fresh),
        *(("unchanged", "unchanged", w) for w in changes.unchanged),
        *(("acknowledged", "acknowledged", w) for w, fresh in changes.acknowledged if not fresh),
    ]


def warning_counts(changes: WarningChanges) -> str:
    """``1 new, 0 gone, 2 unchanged, 1 acknowledged (1 newly)``."""
    fresh = sum(1 for _, is_new in changes.acknowledged if is_new)
    counts = [
        f"{len(changes.new)} new",
        f"{len(changes.gone)} gone",
        f"{len(changes.unchanged)} unchanged",
        f"{len(changes.acknowledged)} acknowledged" + (f" ({fresh} newly)" if fresh else ""),
    ]
    return ", ".join(counts)


def selection_lines(changes: WarningChanges) -> list[StyledLine]:
    """The experiments the new side's stack does not select (newly, or as before)."""
    lines: list[StyledLine] = []
    if changes.newly_not_selected:
        lines.append(
            (
                "newly not selected (this stack no longer plans them, or never did): "
                + _experiments(changes.newly_not_selected),
                "bold yellow",
            )
        )
    if changes.not_selected:
        lines.append(("not selected by the stack: " + _experiments(changes.not_selected), ""))
    return lines


def _experiments(items: Sequence[tuple[str, str]]) -> str:
    by_file: dict[str, list[str]] = {}
    for file, name in items:
        by_file.setdefault(file, []).append(name)
    return "; ".join(f"{file} ({', '.join(names)})" for file, names in by_file.items())


_STATUS_STYLE = {"added": "green", "removed": "red", "changed": "yellow", "unchanged": ""}


def _diff_style(line: str) -> str:
    return next((style for prefix, style in _DIFF_STYLES if line.startswith(prefix)), "")


def write_lines(lines: Sequence[StyledLine], stream: TextIO, colour: bool) -> None:
    """Plain text, or rich's colours when ``colour`` (a terminal); control characters
    from the compared files shown escaped."""
    lines = [(terminal_line(line), style) for line, style in lines]
    if not colour:
        stream.write("".join(f"{line}\n" for line, _ in lines))
        return
    console = Console(
        file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False, markup=False
    )
    for line, style in lines:
        console.print(Text(line, style=style))
