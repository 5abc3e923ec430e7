"""``--format markdown``: a pull-request comment.

Summary tables first, then one collapsible ``<details>`` section per changed object
holding a ``diff`` code block; cut to stay under GitHub's comment limit, with a note.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT, fit
from trainstack.diff.masked import config_note, object_notes
from trainstack.diff.model import STATUSES, ObjectDiff, ReviewedWarning, StackDiff
from trainstack.diff.render_text import listed_warnings, selection_lines, warning_counts

MARKDOWN_LISTED = 25
"""Warnings listed per stack and group in a PR comment; the rest are counted."""
TRUNCATED_NOTE = (
    "\n> **Truncated:** {omitted} more changed object(s) are not shown: this report is kept "
    "under {limit:,} characters (a GitHub comment holds at most 65,536). Run the same "
    "`trainstack diff` locally to see everything.\n"
)


def markdown(diffs: Sequence[StackDiff], limit: int = GITHUB_COMMENT_LIMIT) -> str:
    """The whole comment, at most ``limit`` characters (data at risk first, never cut)."""
    required = [_data_loss(diffs), _summary(diffs), warnings_markdown(diffs)]
    rows = [_row(stack_diff, item) for stack_diff in diffs for item in stack_diff.shown]
    if rows:
        required.append("| compared | change | object |\n|---|---|---|\n")
    extra = [_extras(stack_diff) for stack_diff in diffs]
    sections = [_section(stack_diff, item) for stack_diff in diffs for item in stack_diff.shown]
    optional = [*rows, "\n", *(block for block in extra if block), *sections]
    total_objects = len(sections)

    def note(omitted: int) -> str:
        if not omitted:
            return ""
        hidden = min(omitted, total_objects)
        return TRUNCATED_NOTE.format(omitted=hidden, limit=limit)

    return fit(required, optional, limit, note, _shrink_section)


def _data_loss(diffs: Sequence[StackDiff]) -> str:
    """A caution block listing every data-bearing resource deleted or replaced."""
    risks = [(d, risk) for d in diffs for risk in d.data_risks]
    if not risks:
        return ""
    lines = [
        "> [!CAUTION]",
        f"> **Data at risk:** {len(risks)} data-bearing resource(s) deleted or replaced. "
        "Approve deliberately (`trainstack diff` exit status 3).",
        ">",
    ]
    lines += [
        f"> - {risk.kind} {code_span(risk.label)} ({_compared(d)}): {code_span(risk.reason)}"
        for d, risk in risks
    ]
    return "\n".join(lines) + "\n\n"


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


def warnings_markdown(diffs: Sequence[StackDiff]) -> str:
    """The PR comment's warnings section: per stack, new warnings first (empty: none)."""
    blocks = []
    for stack_diff in diffs:
        changes = stack_diff.warnings
        if changes is None or not changes.any:
            continue
        title = (
            f"{code_span(stack_diff.before_label)} → {code_span(stack_diff.after_label)}: "
            f"{warning_counts(changes)}"
        )
        lines = [title, ""]
        if changes.new:
            lines += [f"> [!WARNING]\n> {len(changes.new)} new warning(s) with this change.", ""]
        shown: dict[str, int] = {}
        for _, label, warning in listed_warnings(changes):
            shown[label] = shown.get(label, 0) + 1
            if shown[label] <= MARKDOWN_LISTED:
                lines.append(_markdown_item(label, warning))
        lines += [
            f"- ... and {count - MARKDOWN_LISTED} more {label} (run `trainstack diff` locally)"
            for label, count in shown.items()
            if count > MARKDOWN_LISTED
        ]
        lines += [f"- {code_span(text)}" for text, _ in selection_lines(changes)]
        lines += [f"- note: {code_span(note)}" for note in changes.notes]
        blocks.append("\n".join(lines) + "\n")
    if not blocks:
        return ""
    return "#### Warnings\n\n" + "\n".join(blocks) + "\n"


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


def _row(stack_diff: StackDiff, item: ObjectDiff) -> str:
    return f"| {_compared(stack_diff)} | {item.status} | {code_span(item.key.label)} |\n"


def _extras(stack_diff: StackDiff) -> str:
    lines = [
        f"- {_compared(stack_diff)}: {code_span(config_note(change))}"
        for change in stack_diff.config_changes
    ]
    lines += [f"- {_compared(stack_diff)}: note: {code_span(note)}" for note in stack_diff.notes]
    return "\n".join(lines) + "\n\n" if lines else ""


def _section(stack_diff: StackDiff, item: ObjectDiff) -> str:
    fence = _fence(item.diff_lines)
    summary = (
        f"{item.status} <code>{_html(item.key.label)}</code> "
        f"({_html(stack_diff.before_label)} → {_html(stack_diff.after_label)})"
    )
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
