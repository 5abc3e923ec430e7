"""The health gate of ``results compare`` (and its options, which ``diff --fairness``
shares): both stacks' health files compared, staleness measured against the runs, and
the throughput each stack's health predicts for experiments that declare their work
(:mod:`trainstack.health.gate`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Annotated

import typer

from trainstack.core.project import Project
from trainstack.health.expected import Expected
from trainstack.health.verdict import DEFAULT_MAX_AGE_HOURS, DEFAULT_TOLERANCE, HealthReport
from trainstack.results.store import StoredRun

HealthTolerance = Annotated[
    float,
    typer.Option(
        "--health-tolerance",
        min=0.1,
        max=100.0,
        metavar="PERCENT",
        help="How far (in %) a node's GEMM TFLOPS or busbw may be from the other stack's "
        "before the stacks are NOT COMPARABLE (docs/health.md).",
    ),
]
HealthMaxAge = Annotated[
    float,
    typer.Option(
        "--health-max-age",
        min=0.0,
        metavar="HOURS",
        help="How far apart the stacks' health measurements (and the runs) may be.",
    ),
]
TOLERANCE_PERCENT = DEFAULT_TOLERANCE * 100
MAX_AGE_HOURS = DEFAULT_MAX_AGE_HOURS


def health_gate(
    project: Project,
    runs: Mapping[str, Mapping[str, Sequence[StoredRun]]],
    tolerance_percent: float = TOLERANCE_PERCENT,
    max_age_hours: float = MAX_AGE_HOURS,
) -> tuple[HealthReport, dict[tuple[str, str, str], Expected]]:
    """The two stacks' (``runs``' keys, in order) health compared, and the predicted
    ranges."""
    from trainstack.health.gate import expected_ranges, health_report

    a, b = list(runs)
    starts = run_starts([run for side in runs.values() for each in side.values() for run in each])
    report = health_report(
        project.root, a, b, project.display, tolerance_percent / 100, max_age_hours, starts
    )
    return report, expected_ranges(project, (a, b))


def run_starts(runs: Sequence[StoredRun]) -> list[datetime]:
    """When each run's job started (runs read from saved logs have no time)."""
    found = []
    for stored in runs:
        started = stored.record.job.start_time if stored.record.job else None
        if not started:  # a saved log's run: no time, and no strptime error to raise
            continue
        try:
            when = datetime.strptime(started, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            continue
        found.append(when.replace(tzinfo=UTC))
    return found
