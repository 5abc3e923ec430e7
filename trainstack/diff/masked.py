"""The notes that tell a reviewer a masked value changed, without ever showing it."""

from __future__ import annotations

from trainstack.diff.model import ConfigChange, ObjectDiff
from trainstack.diff.paths import dotted

CHANGED_MASKED = "changed (value masked)"


def object_notes(item: ObjectDiff) -> list[str]:
    """``inputs.kubeconfig: changed (value masked)`` for each masked leaf that changed."""
    return [f"{dotted(location)}: {CHANGED_MASKED}" for location in item.masked_changes]


def config_note(change: ConfigChange) -> str:
    """``trainstack:kubeconfig: changed (value masked)``; added/removed keys say so."""
    status = CHANGED_MASKED if change.status == "changed" else f"{change.status} (value masked)"
    return f"secure config {change.key}: {status}"
