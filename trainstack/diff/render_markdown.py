"""``--format markdown``: a pull-request comment.

In reading order: the data at risk (a ``[!CAUTION]`` block, never cut), the changes of
inputs read at creation only (a ``[!WARNING]`` block, never cut), a summary table
(one row per pair of stacks), then per pair of stacks what changed: its warning changes,
a table of the changed objects, one collapsible ``<details>`` section per object with
its ``diff``, and, collapsed, the warnings that did not change and the acknowledged
ones; last, what the change costs (:mod:`trainstack.cost.render_diff`: the stacks per
hour and any budget warning, never cut; the experiments whose cost changed and the
campaigns). The pair is named once, in the section's heading, never in each row.

The character budget (GitHub's comment limit, or ``--max-chars``) is spent on changes
first, wherever they are printed: warning changes, then the rows of changed objects and
the cost tables, then the object diffs, then the collapsed lists
(:func:`~trainstack.diff.budget.fit_ranked`); what does not fit is counted in a note at
the end.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.cost.render_diff import cost_markdown
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT, Block, fit_ranked
from trainstack.diff.capacity import capacity_markdown
from trainstack.diff.masked import config_note, object_notes
from trainstack.diff.model import STATUSES, ObjectDiff, ReviewedWarning, StackDiff
from trainstack.diff.render_text import (
    cost_pairs,
    listed_warnings,
    selection_lines,
    warning_counts,
)

MARKDOWN_LISTED = 25
"""Warnings listed per stack and group in a PR comment; the rest are counted."""
CHANGES, ROWS, DIFFS, UNCHANGED = 1, 2, 3, 4
"""Ranks of the budget: what changed first, what did not change last."""
TRUNCATED_NOTE = (
    "\n> **Truncated:** {omitted} not shown: this report is kept under {limit:,} "
    "characters (a GitHub comment holds at most 65,536). Run the same `trainstack diff` "
    "locally to see everything.\n"
)
_COUNTED = {
    "object": "more changed object(s)",
    "row": "more row(s) of changed objects",
    "warnings": "warning change list(s)",
    "collapsed": "collapsed list(s) of unchanged and acknowledged warnings",
    "cost": "cost table(s)",
}
_CHANGES = {"new", "gone", "newly acknowledged"}
"""The labels of warnings a change brings, removes or acknowledges."""


def markdown(diffs: Sequence[StackDiff], limit: int = GITHUB_COMMENT_LIMIT) -> str:
    """The whole comment, at most ``limit`` characters (data at risk first, never cut)."""
    blocks = [Block(_data_loss(diffs)), Block(_not_applied(diffs)), Block(_summary(diffs))]
    for stack_diff in diffs:
        blocks += _stack_blocks(stack_diff)
    # After the data at risk and the changes: the stacks' cost and any budget warning
    # always, each experiment whose cost changed and the campaigns as room allows.
    head, experiments, campaigns = cost_markdown(cost_pairs(diffs))
    blocks += [Block(head), Block(experiments, ROWS, "cost"), Block(campaigns, ROWS, "cost")]

    def note(omitted: Counter[str]) -> str:
        parts = [f"{omitted[kind]} {what}" for kind, what in _COUNTED.items() if omitted[kind]]
        if not parts:
            return ""
        return TRUNCATED_NOTE.format(omitted=", ".join(parts), limit=limit)

    return fit_ranked(blocks, limit, note, _shrink_section)


def _data_loss(diffs: Sequence[StackDiff]) -> str:
    """A caution block listing every data-bearing resource deleted or replaced."""
    risks = [(d, risk) for d in diffs for risk in d.data_risks]
    heading = (
        f"**Data at risk:** {len(risks)} data-bearing resource(s) deleted or replaced. "
        "Approve deliberately (`trainstack diff` exit status 3)."
    )
    items = [
        f"{risk.kind} {code_span(risk.label)} ({_compared(d)}): {code_span(risk.reason)}"
        for d, risk in risks
    ]
    return _alert("CAUTION", heading, items)


def _not_applied(diffs: Sequence[StackDiff]) -> str:
    """A warning block listing every change of inputs read at creation only."""
    found = [(d, item) for d in diffs for item in d.not_applied]
    heading = (
        f"**Not applied:** {len(found)} resource(s) with changed inputs read at creation "
        "only: `pulumi up` reports success and the running resource keeps its old settings. "
        "No data at risk; the exit status is that of any change."
    )
    items = [
        f"{code_span(item.label)} ({_compared(d)}): {code_span(item.shown())}: "
        f"{code_span(item.why)}"
        for d, item in found
    ]
    return _alert("WARNING", heading, items)


def _alert(kind: str, heading: str, items: Sequence[str]) -> str:
    """A GitHub alert block (``> [!CAUTION]``): the heading, then one item per line; empty
    without items."""
    if not items:
        return ""
    return "\n".join([f"> [!{kind}]", f"> {heading}", ">", *(f"> - {i}" for i in items)]) + "\n\n"


def _summary(diffs: Sequence[StackDiff]) -> str:
    lines = ["### trainstack diff", ""]
    lines.append("| compared | " + " | ".join(STATUSES) + " |")
    lines.append("|---|" + "---:|" * len(STATUSES))
    for stack_diff in diffs:
        counts = " | ".join(str(stack_diff.count(status)) for status in STATUSES)
        lines.append(f"| {_compared(stack_diff)} | {counts} |")
    lines.append("")
    if not any(stack_diff.has_changes for stack_diff in diffs):
        lines += ["No changes.", ""]
    return "\n".join(lines) + "\n"


def _stack_blocks(stack_diff: StackDiff) -> list[Block]:
    """One pair of stacks: heading, warning changes, objects, their diffs, the rest."""
    changes = stack_diff.warnings
    open_warnings = changes is not None and bool(changes.unchanged or changes.notes)
    if not (stack_diff.has_changes or stack_diff.notes or open_warnings):
        return []
    blocks = [Block(f"#### {_compared(stack_diff)}\n\n")]
    changed = warnings_markdown([stack_diff])
    if changed:
        blocks.append(Block(changed, CHANGES, "warnings"))
    capacity = capacity_markdown(stack_diff.capacity)
    if capacity:
        blocks.append(Block(capacity))
    extras = [code_span(config_note(change)) for change in stack_diff.config_changes]
    extras += [f"note: {code_span(note)}" for note in stack_diff.notes]
    if extras:
        blocks.append(Block("".join(f"- {line}\n" for line in extras) + "\n", CHANGES))
    for index, item in enumerate(stack_diff.shown):
        head = "| change | object |\n|---|---|\n" if index == 0 else ""
        end = "\n" if index == len(stack_diff.shown) - 1 else ""
        row = f"{head}| {item.status} | {code_span(item.key.label)} |\n{end}"
        blocks.append(Block(row, ROWS, "row"))
    blocks += [Block(_section(item), DIFFS, "object", shrinkable=True) for item in stack_diff.shown]
    collapsed = collapsed_warnings(stack_diff)
    if collapsed:
        blocks.append(Block(collapsed, UNCHANGED, "collapsed"))
    return blocks


def warnings_markdown(diffs: Sequence[StackDiff]) -> str:
    """The warnings a change brings, removes or acknowledges, per stack (empty: none).

    Unchanged and acknowledged warnings are not here: they are collapsed at the end of
    the stack's section (:func:`collapsed_warnings`).
    """
    blocks = []
    for stack_diff in diffs:
        changes = stack_diff.warnings
        if changes is None or not (changes.changed or changes.notes):
            continue
        lines = [f"**Warnings:** {warning_counts(changes)}", ""]
        if changes.new:
            lines += [f"> [!WARNING]\n> {len(changes.new)} new warning(s) with this change.", ""]
        listed = [(label, w) for _, label, w in listed_warnings(changes) if label in _CHANGES]
        lines += _items(listed)
        newly = replace(changes, not_selected=())  # a change; the others are collapsed
        lines += [f"- {code_span(text)}" for text, _ in selection_lines(newly)]
        lines += [f"- note: {code_span(note)}" for note in changes.notes]
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def collapsed_warnings(stack_diff: StackDiff) -> str:
    """The stack's unchanged and acknowledged warnings and the experiments it does not
    select, in one ``<details>`` (empty: none)."""
    changes = stack_diff.warnings
    if changes is None:
        return ""
    listed = [(label, w) for _, label, w in listed_warnings(changes) if label not in _CHANGES]
    kept = replace(changes, newly_not_selected=())
    lines = _items(listed)
    lines += [f"- {code_span(text)}" for text, _ in selection_lines(kept)]
    if not lines:
        return ""
    counts = [
        (len(changes.unchanged), "unchanged warning(s)"),
        (sum(1 for _, fresh in changes.acknowledged if not fresh), "acknowledged warning(s)"),
        (len(changes.not_selected), "experiment(s) not selected"),
    ]
    summary = ", ".join(f"{count} {what}" for count, what in counts if count)
    return f"<details><summary>{summary}</summary>\n\n" + "\n".join(lines) + "\n\n</details>\n\n"


def _items(listed: Sequence[tuple[str, ReviewedWarning]]) -> list[str]:
    """One list item per warning, at most :data:`MARKDOWN_LISTED` per label."""
    shown: dict[str, int] = {}
    lines = []
    for label, warning in listed:
        shown[label] = shown.get(label, 0) + 1
        if shown[label] <= MARKDOWN_LISTED:
            lines.append(_markdown_item(label, warning))
    lines += [
        f"- ... and {count - MARKDOWN_LISTED} more {label} (run `trainstack diff` locally)"
        for label, count in shown.items()
        if count > MARKDOWN_LISTED
    ]
    return lines


def _markdown_item(label: str, warning: ReviewedWarning) -> str:
    text = (
        f"- **{label}** {code_span(warning.check)} {code_span(warning.source)} experiment "
        f"{code_span(warning.experiment)} {code_span(warning.key)}: "
        f"{code_span(warning.message)}"
    )
    if warning.reason is not None:
        text += f" — acknowledged in {code_span(str(warning.acknowledged_in))}: "
        text += code_span(warning.reason)
    return text


def _section(item: ObjectDiff) -> str:
    summary = f"{item.status} <code>{_html(item.key.label)}</code>"
    if item.status == "removed":
        # Every line of a removed object is a "-" line the reviewer cannot act on (a job
        # is ~900 of them, its preflight script inline in each role): its definition
        # stays in the base, and `trainstack diff` shows it in full locally.
        lines = sum(1 for line in item.diff_lines[2:] if line.startswith("-"))  # no header
        return (
            f"<details><summary>{summary}</summary>\n\nIts {lines} line(s) are on the base "
            "side; run `trainstack diff` locally to see them.\n\n</details>\n\n"
        )
    fence = _fence(item.diff_lines)
    body = "".join(f"{line}\n" for line in item.diff_lines)
    notes = "".join(f"\nmasked: {code_span(note)}\n" for note in object_notes(item))
    return (
        f"<details><summary>{summary}</summary>\n\n{fence}diff\n{body}{fence}\n{notes}"
        "</details>\n\n"
    )


def _shrink_section(section: str, room: int) -> str | None:
    """The section with its diff cut short so that it fits in ``room`` characters."""
    head, _, rest = section.partition("diff\n")
    fence = head[head.rindex("\n") + 1 :]
    body, _, _ = rest.partition(f"{fence}\n")
    tail = f"... (diff cut here to fit the comment)\n{fence}\n</details>\n\n"
    room_for_body = room - len(head) - len("diff\n") - len(tail)
    if room_for_body < 200:
        return None
    cut = body[: body.rfind("\n", 0, room_for_body) + 1]
    return f"{head}diff\n{cut}{tail}"


def _fence(lines: Sequence[str]) -> str:
    """A code fence longer than any run of backticks inside the block."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def _compared(stack_diff: StackDiff) -> str:
    return f"{code_span(stack_diff.before_label)} → {code_span(stack_diff.after_label)}"


def _html(text: str) -> str:
    """``text`` inside an HTML element (the ``<summary>`` line): one line, tags escaped."""
    return html.escape(printable(text))
