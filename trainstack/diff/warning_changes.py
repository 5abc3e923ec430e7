"""Each stack's plan-time warnings in a diff, matched across the two sides.

A plan's ``review.json`` (:mod:`trainstack.plan.review`) lists its warnings, the
acknowledged ones with their reasons, and the experiments its stack does not select.
Warnings are matched across the two sides by identity: their id, file, experiment, key
and message, with the stack's own file name left out (a warning about a team names the
stack file it reads: ``aiacc`` and ``baseline`` give the same warning in two files). A
warning whose numbers change is a new warning (and the old one is gone).

The warnings and their changes are :mod:`trainstack.diff.model`'s; the reports show them
with :func:`trainstack.diff.render_text.warning_lines` and
:func:`trainstack.diff.render_markdown.warnings_markdown`.
"""

from __future__ import annotations

from trainstack.diff.model import Review, ReviewedWarning, WarningChanges
from trainstack.plan.files import AcknowledgedItem, ReviewFile, WarningItem

STACK_FILE = "<stack file>"
NOT_RECORDED_NOTE = (
    "the plan {side} records no warnings (made by a trainstack without review.json): its "
    "warnings are not compared"
)


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
