"""``--format markdown``: a pull-request comment.

Summary tables first, then one collapsible ``<details>`` section per changed object
holding a ``diff`` code block; cut to stay under GitHub's comment limit, with a note.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from trainstack.diff.budget import GITHUB_COMMENT_LIMIT, fit
from trainstack.diff.masked import config_note, object_notes
from trainstack.diff.model import STATUSES, ObjectDiff, StackDiff
from trainstack.diff.warnings import warnings_markdown

ESCAPED_PIPE = "\\|"
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
        f"> - {risk.kind} {code_span(risk.label)} ({_compared(d)}): {html.escape(risk.reason)}"
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


def _row(stack_diff: StackDiff, item: ObjectDiff) -> str:
    return f"| {_compared(stack_diff)} | {item.status} | {code_span(item.key.label)} |\n"


def _extras(stack_diff: StackDiff) -> str:
    lines = [
        f"- {_compared(stack_diff)}: {code_span(config_note(change))}"
        for change in stack_diff.config_changes
    ]
    lines += [f"- {_compared(stack_diff)}: note: {html.escape(note)}" for note in stack_diff.notes]
    return "\n".join(lines) + "\n\n" if lines else ""


def _section(stack_diff: StackDiff, item: ObjectDiff) -> str:
    fence = _fence(item.diff_lines)
    summary = (
        f"{item.status} <code>{html.escape(item.key.label)}</code> "
        f"({html.escape(stack_diff.before_label)} → {html.escape(stack_diff.after_label)})"
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


def code_span(text: str) -> str:
    """Inline code that survives tables (``|``) and embedded backticks."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    # GitHub splits table cells on "|" even inside code spans, unless it is escaped.
    return f"{ticks}{padded.replace('|', ESCAPED_PIPE)}{ticks}"
