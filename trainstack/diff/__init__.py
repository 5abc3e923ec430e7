"""Reviewable changes: diffs between stacks or git revisions, and the fairness report."""

from trainstack.diff.compare import compare
from trainstack.diff.fairness import FairnessReport, classify
from trainstack.diff.model import ObjectDiff, ObjectKey, PlanObject, Snapshot, StackDiff
from trainstack.diff.snapshot import load_snapshot

__all__ = [
    "FairnessReport",
    "ObjectDiff",
    "ObjectKey",
    "PlanObject",
    "Snapshot",
    "StackDiff",
    "classify",
    "compare",
    "load_snapshot",
]
