"""Each stack's plan-time warnings in a diff: new ones first, then the rest.

A plan's ``review.json`` (:mod:`trainstack.plan.review`) lists its warnings, the
acknowledged ones with their reasons, and the experiments its stack does not select.
Warnings are matched across the two sides by identity: their id, file, experiment, key
and message, with the stack's own file name left out (a warning about a team names the
stack file it reads: ``aiacc`` and ``baseline`` give the same warning in two files). A
warning whose numbers change is a new warning (and the old one is gone).

The renderers call :func:`warning_lines` (text) and :func:`warnings_markdown` only.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from trainstack.plan.files import AcknowledgedItem, ReviewFile, WarningItem

if TYPE_CHECKING:
    from trainstack.diff.model import StackDiff

STACK_FILE = "<stack file>"
MARKDOWN_LISTED = 25
"""Warnings listed per stack and group in a PR comment; the rest are counted."""
NOT_RECORDED_NOTE = (
    "the plan {side} records no warnings (made by a trainstack without review.json): its "
    "warnings are not compared"
)

StyledLine = tuple[str, str]
Group = Literal["new", "gone", "unchanged", "acknowledged"]


@dataclass(frozen=True, order=True)
class ReviewedWarning:
    """One warning of a plan, acknowledged (with the reason) or not."""

    identity: tuple[str, ...]
    """What matches it across plans: file, experiment, key, id, message (the stack file's name
    left out); it also orders warnings by file."""
    check: str = field(compare=False)
    source: str = field(compare=False)
    experiment: str = field(compare=False)
    key: str = field(compare=False)
    message: str = field(compare=False)
    reason: str | None = field(default=None, compare=False)
    """Why it is meant, when acknowledged."""
    acknowledged_in: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        text = f"{self.source}: experiment {self.experiment}: {self.key}: {self.message}"
        text += f" [{self.check}]"
        if self.reason is not None:
            text += f" (acknowledged in {self.acknowledged_in}: {self.reason})"
        return text


@dataclass(frozen=True)
class Review:
    """A plan's ``review.json``."""

    warnings: tuple[ReviewedWarning, ...] = ()
    acknowledged: tuple[ReviewedWarning, ...] = ()
    not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) of every experiment the stack does not select."""


def review_from_file(review: ReviewFile | None) -> Review | None:
    """A plan's ``review.json`` (``None``: the plan has none) as the diff compares it."""
    if review is None:
        return None
    stack_file = review.stack_file
    warnings = [_warning(item, stack_file) for item in review.warnings]
    acknowledged = [
        _warning(item, stack_file, item.reason, item.acknowledged_in)
        for item in review.acknowledged
    ]
    not_selected = [(item.file, name) for item in review.not_selected for name in item.experiments]
    return Review(tuple(sorted(warnings)), tuple(sorted(acknowledged)), tuple(not_selected))


@dataclass(frozen=True)
class WarningChanges:
    """One stack's warnings on both sides of a diff."""

    new: tuple[ReviewedWarning, ...] = ()
    """Warnings of the new side that the old side did not give (or had acknowledged)."""
    gone: tuple[ReviewedWarning, ...] = ()
    """Warnings (acknowledged or not) of the old side that the new side does not give."""
    unchanged: tuple[ReviewedWarning, ...] = ()
    acknowledged: tuple[tuple[ReviewedWarning, bool], ...] = ()
    """The new side's acknowledged warnings, each with whether it is newly acknowledged."""
    newly_not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) the new side's stack does not select and the old side's did (or
    that did not exist there)."""
    not_selected: tuple[tuple[str, str], ...] = ()
    """(file, experiment) neither side's stack selects."""
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Warnings appear, disappear or become acknowledged; experiments become unselected."""
        fresh = any(is_new for _, is_new in self.acknowledged)
        return bool(self.new or self.gone or fresh or self.newly_not_selected)

    @property
    def any(self) -> bool:
        """Anything to show (a plan that records no warnings is said, even with none)."""
        shown = self.unchanged or self.acknowledged or self.not_selected or self.notes
        return bool(self.changed or shown)


def warning_changes(
    before: Review | None, after: Review | None, before_label: str, after_label: str
) -> WarningChanges:
    """Match the warnings of two plans (``None``: a plan without ``review.json``)."""
    notes = tuple(
        NOT_RECORDED_NOTE.format(side=label)
        for review, label in ((before, before_label), (after, after_label))
        if review is None
    )
    old, new = before or Review(), after or Review()
    old_open = {w.identity for w in old.warnings}
    new_all = {w.identity for w in (*new.warnings, *new.acknowledged)}
    old_acknowledged = {w.identity for w in old.acknowledged}
    old_selection = set(old.not_selected)
    return WarningChanges(
        new=tuple(w for w in new.warnings if w.identity not in old_open),
        gone=tuple(w for w in (*old.warnings, *old.acknowledged) if w.identity not in new_all),
        unchanged=tuple(w for w in new.warnings if w.identity in old_open),
        acknowledged=tuple((w, w.identity not in old_acknowledged) for w in new.acknowledged),
        newly_not_selected=tuple(
            item for item in new.not_selected if before is not None and item not in old_selection
        ),
        not_selected=tuple(
            item for item in new.not_selected if before is None or item in old_selection
        ),
        notes=notes,
    )


def warning_lines(stack_diff: StackDiff) -> list[StyledLine]:
    """The text report's lines for one stack: counts, then each warning, new ones first."""
    changes = stack_diff.warnings
    if changes is None or not changes.any:
        return []
    lines: list[StyledLine] = [(f"warnings: {_counts(changes)}", "bold")]
    listed = _listed(changes)
    width = max((len(label) for _, label, _ in listed), default=0)
    for group, label, warning in listed:
        lines.append((f"  {label:<{width}}  {warning}", _STYLE[group]))
    lines += _selection_lines(changes)
    lines += [(f"note: {note}", "yellow") for note in changes.notes]
    return lines


def warnings_markdown(diffs: Sequence[StackDiff]) -> str:
    """The PR comment's warnings section: per stack, new warnings first (empty: none)."""
    # Imported here: the markdown renderer imports this module.
    from trainstack.diff.render_markdown import code_span

    blocks = []
    for stack_diff in diffs:
        changes = stack_diff.warnings
        if changes is None or not changes.any:
            continue
        title = (
            f"{code_span(stack_diff.before_label)} → {code_span(stack_diff.after_label)}: "
            f"{_counts(changes)}"
        )
        lines = [title, ""]
        if changes.new:
            lines += [f"> [!WARNING]\n> {len(changes.new)} new warning(s) with this change.", ""]
        shown: dict[str, int] = {}
        for _, label, warning in _listed(changes):
            shown[label] = shown.get(label, 0) + 1
            if shown[label] <= MARKDOWN_LISTED:
                lines.append(_markdown_item(label, warning, code_span))
        lines += [
            f"- ... and {count - MARKDOWN_LISTED} more {label} (run `trainstack diff` locally)"
            for label, count in shown.items()
            if count > MARKDOWN_LISTED
        ]
        lines += [f"- {html.escape(text, quote=False)}" for text, _ in _selection_lines(changes)]
        lines += [f"- note: {html.escape(note, quote=False)}" for note in changes.notes]
        blocks.append("\n".join(lines) + "\n")
    if not blocks:
        return ""
    return "#### Warnings\n\n" + "\n".join(blocks) + "\n"


_STYLE: dict[Group, str] = {
    "new": "bold yellow",
    "gone": "green",
    "unchanged": "yellow",
    "acknowledged": "",
}


def _listed(changes: WarningChanges) -> list[tuple[Group, str, ReviewedWarning]]:
    """(group, label, warning): new, gone, newly acknowledged, unchanged, acknowledged."""
    return [
        *(("new", "new", w) for w in changes.new),
        *(("gone", "gone", w) for w in changes.gone),
        *(("acknowledged", "newly acknowledged", w) for w, fresh in changes.acknowledged if fresh),
        *(("unchanged", "unchanged", w) for w in changes.unchanged),
        *(("acknowledged", "acknowledged", w) for w, fresh in changes.acknowledged if not fresh),
    ]


def _counts(changes: WarningChanges) -> str:
    fresh = sum(1 for _, is_new in changes.acknowledged if is_new)
    counts = [
        f"{len(changes.new)} new",
        f"{len(changes.gone)} gone",
        f"{len(changes.unchanged)} unchanged",
        f"{len(changes.acknowledged)} acknowledged" + (f" ({fresh} newly)" if fresh else ""),
    ]
    return ", ".join(counts)


def _selection_lines(changes: WarningChanges) -> list[StyledLine]:
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


def _markdown_item(label: str, warning: ReviewedWarning, code_span: Callable[[str], str]) -> str:
    text = (
        f"- **{label}** {code_span(warning.check)} {code_span(warning.source)} experiment "
        f"{code_span(warning.experiment)} {code_span(warning.key)}: "
        f"{html.escape(warning.message, quote=False)}"
    )
    if warning.reason is not None:
        text += f" — acknowledged in {code_span(str(warning.acknowledged_in))}: "
        text += f"*{html.escape(warning.reason, quote=False)}*"
    return text


def _warning(
    item: WarningItem | AcknowledgedItem,
    stack_file: str,
    reason: str | None = None,
    acknowledged_in: str | None = None,
) -> ReviewedWarning:
    fields = {name: getattr(item, name) for name in _FIELDS}
    identity = tuple(fields[name].replace(stack_file, STACK_FILE) for name in _FIELDS)
    return ReviewedWarning(
        identity=identity, **fields, reason=reason, acknowledged_in=acknowledged_in
    )


_FIELDS = ("source", "experiment", "key", "check", "message")
