"""The gate ``diff --fairness`` and ``results compare`` call: both stacks' health files
read and compared (:mod:`trainstack.health.verdict`), or why they were not."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

from trainstack.core.project import Project
from trainstack.facts.store import Display
from trainstack.health.expected import Expected, expected
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


def expected_ranges(
    project: Project, stacks: Sequence[str]
) -> dict[tuple[str, str, str], Expected]:
    """(stack, experiment, metric) -> the range each stack's health predicts, for every
    experiment that declares its ``work`` (none without a health file: nothing loaded)."""
    found: dict[tuple[str, str, str], Expected] = {}
    for stack in stacks:
        facts = read_health(project.root, stack, project.display)
        if facts is None:
            continue
        # Loaded only for a stack with a health file: a compare without any needs neither.
        from trainstack.experiments.lookup import load_stack_experiments
        from trainstack.training_job.frameworks import framework

        for run in load_stack_experiments(project, stack).runs:
            if run.work is None:
                continue
            gpu_pods = [pods for pods in framework(run.job.framework).pods(run.job) if pods.gpus]
            gpus = sum(pods.replicas * pods.gpus for pods in gpu_pods)
            count = sum(pods.replicas for pods in gpu_pods)
            predicted = expected(run.work, facts, run.point_name, run.pool, gpus, count)
            if predicted is not None:
                found[(stack, run.point_name, run.work.metric)] = predicted
    return found
