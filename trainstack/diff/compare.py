"""Match the objects of two snapshots and diff each pair of canonical YAML texts."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from trainstack.core.yaml.io import canonical_yaml
from trainstack.cost.change import cost_change
from trainstack.diff.capacity import capacity_change
from trainstack.diff.data_loss import data_risk
from trainstack.diff.derived import digest_note, summarised
from trainstack.diff.model import (
    ConfigChange,
    ObjectDiff,
    ObjectKey,
    PlanObject,
    Review,
    Snapshot,
    StackDiff,
    Status,
)
from trainstack.diff.not_applied import not_applied
from trainstack.diff.paths import Location, leaves_equal_to, replaced
from trainstack.diff.warning_changes import warning_changes
from trainstack.plan.masking import SECRET

# kubectl diff marks a changed Secret value the same way: the reader sees which value
# changed and never what it was or became.
MASKED_BEFORE = f"{SECRET} (before)"
MASKED_AFTER = f"{SECRET} (after)"
UNCOMPARABLE_NOTE = (
    "{count} masked value(s) could not be compared: a plan was made without a secret-digest "
    "key, so a change of a secret would not show"
)


def compare(
    before: Snapshot,
    after: Snapshot,
    before_label: str,
    after_label: str,
    context: int = 3,
    notes: tuple[str, ...] = (),
    full: bool = False,
) -> StackDiff:
    """Every object of both sides, matched by key, with a unified diff where it differs
    (derived content summarised unless ``full``: :mod:`trainstack.diff.derived`)."""
    keys = sorted(set(before.objects) | set(after.objects))
    uncomparable = 0
    objects = []
    shown = _Shown(context, full)
    for key in keys:
        item, unknown = _object_diff(
            key, before.objects.get(key), after.objects.get(key), before_label, after_label, shown
        )
        objects.append(item)
        uncomparable += unknown
    extra = [UNCOMPARABLE_NOTE.format(count=uncomparable)] if uncomparable else []
    digests = shown.note()
    extra += [digests] if digests else []
    risks = (data_risk(item) for item in objects)
    unapplied = (not_applied(item) for item in objects)
    return StackDiff(
        before_label=before_label,
        after_label=after_label,
        objects=tuple(objects),
        config_changes=_config_changes(before.config_digests, after.config_digests),
        notes=(*notes, *extra),
        data_risks=tuple(risk for risk in risks if risk is not None),
        not_applied=tuple(found for found in unapplied if found is not None),
        warnings=warning_changes(_review(before), _review(after), before_label, after_label),
        cost=cost_change(
            before.cost, after.cost, before_label, after_label, (before.exists, after.exists)
        ),
        capacity=capacity_change(before.capacity, after.capacity),
    )


@dataclass
class _Shown:
    """How diffs are shown, and the base-values digests their objects held on each side."""

    context: int
    full: bool
    before: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)
    objects: int = 0

    def lines(self, before: Any, after: Any, from_name: str, to_name: str) -> tuple[str, ...]:
        """The unified diff, derived content summarised (the digests kept for the note)."""
        if not self.full:
            old, new = summarised(before), summarised(after)
            # An added or removed object has its digest on one side only: no change to say.
            if before is not None and after is not None and old.digests != new.digests:
                self.before |= old.digests
                self.after |= new.digests
                self.objects += 1
            before, after = old.document, new.document
        return _unified(before, after, from_name, to_name, self.context)

    def note(self) -> str | None:
        """The one line that says the digest changed (``None``: unchanged, or ``full``)."""
        return digest_note(self.before, self.after, self.objects)


def _review(snapshot: Snapshot) -> Review | None:
    """A missing stack has nothing to review; a plan without ``review.json`` is unknown."""
    return snapshot.review if snapshot.exists else Review()


def _object_diff(
    key: ObjectKey,
    before: PlanObject | None,
    after: PlanObject | None,
    before_label: str,
    after_label: str,
    shown: _Shown,
) -> tuple[ObjectDiff, int]:
    """The diff of one object and how many of its masked values could not be compared."""
    if before is None or after is None:
        present = before or after
        assert present is not None
        status: Status = "added" if before is None else "removed"
        lines = shown.lines(
            before.document if before else None,
            after.document if after else None,
            f"{before_label}: {key.label}" if before else "/dev/null",
            f"{after_label}: {key.label}" if after else "/dev/null",
        )
        return ObjectDiff(
            key=key,
            status=status,
            before=before,
            after=after,
            before_document=before.document if before else None,
            after_document=after.document if after else None,
            diff_lines=lines,
        ), 0
    changed, unknown = _masked_changes(before, after)
    if not changed and before.document == after.document:
        return ObjectDiff(key, "unchanged", before, after, before.document, after.document), unknown
    before_document = replaced(before.document, dict.fromkeys(changed, MASKED_BEFORE))
    after_document = replaced(after.document, dict.fromkeys(changed, MASKED_AFTER))
    lines = shown.lines(
        before_document,
        after_document,
        f"{before_label}: {key.label}",
        f"{after_label}: {key.label}",
    )
    return ObjectDiff(
        key=key,
        status="changed",
        before=before,
        after=after,
        before_document=before_document,
        after_document=after_document,
        diff_lines=lines,
        masked_changes=changed,
    ), unknown


def _masked_changes(before: PlanObject, after: PlanObject) -> tuple[tuple[Location, ...], int]:
    """Masked leaves present on both sides whose digests differ; and those with no digests."""
    both = set(leaves_equal_to(before.document, SECRET)) & set(
        leaves_equal_to(after.document, SECRET)
    )
    changed, unknown = [], 0
    for location in sorted(both, key=_location_order):
        digest_before = before.secret_digests.get(location)
        digest_after = after.secret_digests.get(location)
        if digest_before is None or digest_after is None:
            unknown += 1
        elif digest_before != digest_after:
            changed.append(location)
    return tuple(changed), unknown


def _location_order(location: Location) -> tuple[tuple[int, str], ...]:
    return tuple((0, str(part)) if isinstance(part, int) else (1, part) for part in location)


def _unified(
    before: Any, after: Any, from_name: str, to_name: str, context: int
) -> tuple[str, ...]:
    return tuple(
        difflib.unified_diff(
            canonical_yaml(before).splitlines(),
            canonical_yaml(after).splitlines(),
            fromfile=from_name,
            tofile=to_name,
            n=context,
            lineterm="",
        )
    )


def _config_changes(
    before: Mapping[str, str], after: Mapping[str, str]
) -> tuple[ConfigChange, ...]:
    changes = []
    for key in sorted(set(before) | set(after)):
        if key not in before:
            changes.append(ConfigChange(key, "added"))
        elif key not in after:
            changes.append(ConfigChange(key, "removed"))
        elif before[key] != after[key]:
            changes.append(ConfigChange(key, "changed"))
    return tuple(changes)
