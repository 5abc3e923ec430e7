"""``--format json``: the diff for scripts, one versioned document (docs/scripting.md).

``{"format": "trainstack-diff/1", "changes", "dataAtRisk", "notApplied", "overBudget",
"stacks": [...], "campaigns": [...]}``:
per comparison its labels, counts, data at risk, the changes of inputs read at creation
only (not applied), every object that differs (its status, its experiment, the unified
diff lines, the masked values that changed), the secure config keys that changed, the
warnings on both sides, the cost on both sides (every figure of each plan's ``cost.json``
and the differences: :mod:`trainstack.cost.render_diff`) and the notes; then each
experiment's campaign over every stack compared; with ``--fairness``, the
fairness report under ``"fairness"``. Keys are fixed and always present (empty lists, or
``null`` where nothing was recorded); the format's number changes when a key changes
meaning or goes away, never when one is added. Every string is ASCII-escaped: no control
character a plan holds reaches the terminal raw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainstack.console.json_output import json_text
from trainstack.cost.render_diff import campaigns_json, cost_json
from trainstack.diff.capacity import capacity_json
from trainstack.diff.fairness import CATEGORIES, FairnessReport
from trainstack.diff.model import (
    STATUSES,
    NotApplied,
    ObjectDiff,
    ReviewedWarning,
    StackDiff,
    WarningChanges,
)
from trainstack.diff.paths import MISSING, dotted
from trainstack.health.verdict import health_json

DIFF_FORMAT = "trainstack-diff/1"


def diff_json(diffs: Sequence[StackDiff], fairness: FairnessReport | None = None) -> str:
    """The document for ``diffs`` (and the fairness report of two stacks), with a newline."""
    document: dict[str, Any] = {
        "format": DIFF_FORMAT,
        "changes": any(item.has_changes for item in diffs),
        "dataAtRisk": any(item.data_risks for item in diffs),
        "notApplied": any(item.not_applied for item in diffs),
        "overBudget": any(item.cost is not None and item.cost.over_budget for item in diffs),
        "stacks": [_stack(item) for item in diffs],
        "campaigns": campaigns_json([item.cost for item in diffs if item.cost is not None]),
    }
    if fairness is not None:
        document["fairness"] = _fairness(fairness)
    return json_text(document)


def _stack(item: StackDiff) -> dict[str, Any]:
    return {
        "before": item.before_label,
        "after": item.after_label,
        "changes": item.has_changes,
        "counts": {status: item.count(status) for status in STATUSES},
        "dataAtRisk": [
            {"object": risk.label, "kind": risk.kind, "reason": risk.reason}
            for risk in item.data_risks
        ],
        "notApplied": [_not_applied(found) for found in item.not_applied],
        "objects": [_object(diff) for diff in item.shown],
        "config": [{"key": change.key, "status": change.status} for change in item.config_changes],
        "warnings": None if item.warnings is None else _warnings(item.warnings),
        "cost": cost_json(item.cost),
        "capacity": capacity_json(item.capacity),
        "notes": list(item.notes),
    }


def _not_applied(found: NotApplied) -> dict[str, Any]:
    """Every changed leaf (not only those the text shows); ``null`` on the side without it."""
    return {
        "object": found.label,
        "inputs": [
            {"path": dotted(c.location), "before": _value(c.before), "after": _value(c.after)}
            for c in found.changes
        ],
        "why": found.why,
    }


def _value(value: Any) -> Any:
    return None if value is MISSING else value


def _object(item: ObjectDiff) -> dict[str, Any]:
    side = item.after or item.before
    return {
        "object": item.key.label,
        "key": list(item.key.parts),
        "status": item.status,
        "type": side.pulumi_type if side is not None else "",
        "experiment": side.experiment if side is not None else None,
        "diff": list(item.diff_lines),
        "maskedChanges": [dotted(location) for location in item.masked_changes],
    }


def _warnings(changes: WarningChanges) -> dict[str, Any]:
    return {
        "new": [_warning(found) for found in changes.new],
        "gone": [_warning(found) for found in changes.gone],
        "unchanged": [_warning(found) for found in changes.unchanged],
        "acknowledged": [
            {**_warning(found), "newlyAcknowledged": fresh} for found, fresh in changes.acknowledged
        ],
        "newlyNotSelected": [_unselected(item) for item in changes.newly_not_selected],
        "notSelected": [_unselected(item) for item in changes.not_selected],
        "notes": list(changes.notes),
    }


def _warning(found: ReviewedWarning) -> dict[str, Any]:
    return {
        "id": found.check,
        "file": found.source,
        "experiment": found.experiment,
        "key": found.key,
        "message": found.message,
        "reason": found.reason,
        "acknowledgedIn": found.acknowledged_in,
    }


def _unselected(item: tuple[str, str]) -> dict[str, str]:
    return {"file": item[0], "experiment": item[1]}


def _fairness(report: FairnessReport) -> dict[str, Any]:
    environment = report.environment
    return {
        "before": report.before_label,
        "after": report.after_label,
        "fair": report.fair,
        "findings": {
            category: [
                {"subject": found.subject, "detail": found.detail} for found in report.of(category)
            ]
            for category in CATEGORIES
        },
        "environment": None
        if environment is None
        else {
            "compared": environment.compared,
            "comparable": environment.comparable,
            "missing": environment.missing,
            "findings": [
                {"severity": found.severity, "text": found.text} for found in environment.findings
            ],
        },
        "health": None if report.health is None else health_json(report.health),
        "notes": list(report.notes),
    }
