"""The gate ``diff --fairness`` and ``results compare`` call: both stacks' health files
read and compared (:mod:`trainstack.health.verdict`), or why they were not."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from trainstack.facts.store import Display
from trainstack.health.store import read_health
from trainstack.health.verdict import (
    DEFAULT_MAX_AGE_HOURS,
    DEFAULT_TOLERANCE,
    HealthReport,
    compare_health,
    not_measured,
)


def health_report(
    root: Path,
    a: str,
    b: str,
    display: Display,
    tolerance: float = DEFAULT_TOLERANCE,
    max_age_hours: float = DEFAULT_MAX_AGE_HOURS,
    runs: Sequence[datetime] = (),
) -> HealthReport:
    """Stacks ``a`` and ``b``'s health compared (``runs``: start times of the runs the
    comparison is about: staleness is measured against them)."""
    found = {stack: read_health(root, stack, display) for stack in (a, b)}
    a_facts, b_facts = found[a], found[b]
    if a_facts is None or b_facts is None:
        return not_measured(a, b, found)
    return compare_health(a_facts, b_facts, tolerance, timedelta(hours=max_age_hours), runs)
