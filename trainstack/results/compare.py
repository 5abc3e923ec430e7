"""``results compare A B``: per experiment and metric, A's runs against B's.

Only runs of the same experiment as declared now count on each side: the runs whose
base-values digest is that of the side's latest run (earlier runs of an edited
experiment are left out and counted). Two sides compare only when those digests are
equal: otherwise the jobs were not the same and the pair is reported as not comparable;
and when their runs' environments differ in nothing but the acceleration
(:mod:`trainstack.results.environment`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainstack.results.environment import EnvironmentVerdict, environment_verdict
from trainstack.results.record import MetricValue, RunRecord
from trainstack.results.stats import Summary, summarize
from trainstack.results.store import StoredRun


@dataclass(frozen=True)
class Side:
    """One stack's runs of one experiment, for one metric."""

    stack: str
    runs: tuple[int, ...]
    """Run numbers whose values count."""
    summary: Summary | None
    digest: str | None
    excluded: int
    """Runs left out: recorded with an earlier base-values digest."""


@dataclass(frozen=True)
class Row:
    """One experiment and metric, compared."""

    experiment: str
    metric: str
    unit: str
    higher_is_better: bool
    a: Side
    b: Side
    change: float | None
    """mean(A)/mean(B) - 1, or mean(B)/mean(A) - 1 when lower is better: > 0 means A is better."""
    comparable: bool
    reason: str
    environment: EnvironmentVerdict
    """Where the two sides' runs ran, compared."""


def current_runs(runs: Sequence[StoredRun]) -> tuple[list[RunRecord], int]:
    """The runs with the latest run's digest, and how many earlier runs were left out."""
    if not runs:
        return [], 0
    latest = max(runs, key=lambda run: run.record.run).record.base_values_digest
    kept = [run.record for run in runs if run.record.base_values_digest == latest]
    return kept, len(runs) - len(kept)


def relative_change(a: float, b: float, higher_is_better: bool) -> float | None:
    """How much better A is than B, as a fraction (``None`` when a mean is 0)."""
    if higher_is_better:
        return a / b - 1 if b else None
    return b / a - 1 if a else None


def compare(
    a_stack: str,
    a_runs: Mapping[str, Sequence[StoredRun]],
    b_stack: str,
    b_runs: Mapping[str, Sequence[StoredRun]],
) -> list[Row]:
    """Every (experiment, metric) recorded on either side, sorted."""
    rows = []
    for experiment in sorted(set(a_runs) | set(b_runs)):
        a_kept, a_excluded = current_runs(a_runs.get(experiment, ()))
        b_kept, b_excluded = current_runs(b_runs.get(experiment, ()))
        metrics = sorted({name for record in (*a_kept, *b_kept) for name in record.metrics})
        environment = environment_verdict(experiment, a_stack, a_kept, b_stack, b_kept)
        for metric in metrics:
            a = _side(a_stack, a_kept, a_excluded, metric)
            b = _side(b_stack, b_kept, b_excluded, metric)
            first = _first_value(metric, a_kept, b_kept)
            reason = _not_comparable(experiment, metric, a, b)
            if not reason and not environment.comparable:
                reason = environment.reason
            change = None
            if not reason and a.summary and b.summary:
                change = relative_change(a.summary.mean, b.summary.mean, first.higher_is_better)
            rows.append(
                Row(
                    experiment=experiment,
                    metric=metric,
                    unit=first.unit,
                    higher_is_better=first.higher_is_better,
                    a=a,
                    b=b,
                    change=change,
                    comparable=not reason,
                    reason=reason,
                    environment=environment,
                )
            )
    return rows


def _side(stack: str, records: Sequence[RunRecord], excluded: int, metric: str) -> Side:
    with_metric = [record for record in records if metric in record.metrics]
    values = [record.metrics[metric].value for record in with_metric]
    return Side(
        stack=stack,
        runs=tuple(record.run for record in with_metric),
        summary=summarize(values) if values else None,
        digest=records[0].base_values_digest if records else None,
        excluded=excluded,
    )


def _first_value(metric: str, *sides: Sequence[RunRecord]) -> MetricValue:
    return next(
        record.metrics[metric] for side in sides for record in side if metric in record.metrics
    )


def _not_comparable(experiment: str, metric: str, a: Side, b: Side) -> str:
    for side in (a, b):
        if side.digest is None:
            return f"{experiment}: no results on {side.stack}"
        if side.summary is None:
            return f"{experiment}: no run on {side.stack} reports {metric}"
    if a.digest != b.digest:
        return (
            f"{experiment}: the experiment differs between the stacks (base-values digest "
            f"{_short(a.digest)} on {a.stack}, {_short(b.digest)} on {b.stack}); "
            f"see `trainstack diff {a.stack} {b.stack} --fairness`"
        )
    return ""


def _short(digest: str | None) -> str:
    return (digest or "")[len("sha256:") :][:12]
