"""``results compare A B``: per experiment and metric, A's runs against B's.

Only runs of the same experiment as declared now count on each side: the runs whose
base-values digest and ``--set`` values (``trainstack run``) are those of the side's
latest run (earlier runs of an edited experiment, and runs of other ``--set`` values, are
left out and counted). Two sides compare only when those digests are
equal (otherwise the jobs were not the same); when their runs' environments differ in
nothing but the acceleration (:mod:`trainstack.results.environment`); when the metric
covers the same scope on both (a job's total never against one rank's figure); and when
every run's kept log still has the digest its record holds. The change, its interval,
test and the runs it takes: :mod:`trainstack.results.change`. Failed and flagged runs are
left out and listed (:mod:`trainstack.results.usage`); ``rule="mlperf"`` scores each side
by MLPerf's rule instead, every run counted (:mod:`trainstack.results.mlperf`). Two sides
whose runs read different manifests of a dataset are not comparable
(:mod:`trainstack.results.datasets`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trainstack.experiments.overrides import overrides_words
from trainstack.health.expected import Expected
from trainstack.health.verdict import HealthReport
from trainstack.results.change import DEFAULT_RESOLVE, Change, change_of
from trainstack.results.current import current_stored
from trainstack.results.datasets import DatasetVerdict, dataset_verdict
from trainstack.results.environment import EnvironmentVerdict, environment_verdict
from trainstack.results.mlperf import DEFAULT_MIN_RUNS, MlperfComparison, compare_scores
from trainstack.results.record import MetricValue, RunRecord
from trainstack.results.select import check_known, main_metric
from trainstack.results.stats import Summary, summarize
from trainstack.results.store import StoredRun
from trainstack.results.usage import Usage, counted, usage_of

LogCheck = Callable[[StoredRun], str]
"""What is wrong with a run's kept log ("" when it matches its record)."""


@dataclass(frozen=True)
class Side:
    """One stack's runs of one experiment, for one metric."""

    stack: str
    runs: tuple[int, ...]
    """Run numbers whose values count."""
    values: tuple[float, ...]
    summary: Summary | None
    digest: str | None
    excluded: int
    """Runs left out: recorded with an earlier base-values digest."""
    scopes: tuple[str, ...] = ()
    drifted: tuple[tuple[int, float], ...] = ()
    """Runs whose within-run figures drifted: (run, drift)."""
    expected: Expected | None = None
    """The range its stack's measured health predicts (the experiment's ``work``)."""
    suspect: tuple[tuple[int, float], ...] = ()
    """Runs outside :attr:`expected`: (run, value), left out of the statistics."""
    left_out: tuple[tuple[int, str], ...] = ()
    """Runs of the current experiment that do not count: (run, why: failed, flagged)."""
    usage: Usage | None = None
    """What the counted runs' GPUs did, and their goodput; ``None``: nothing recorded."""
    overrides: Mapping[str, Any] = field(default_factory=dict)
    """The ``--set`` values the counted runs ran with (the same for all of them)."""


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
    """> 0 means A is better (see :mod:`trainstack.results.change`); None if not comparable."""
    comparable: bool
    reason: str
    environment: EnvironmentVerdict
    """Where the two sides' runs ran, compared."""
    stats: Change | None = None
    """Interval, test and runs needed (comparable rows)."""
    health: str = ""
    """The two stacks' health compared, in one phrase (``health not measured: ...``)."""
    mlperf: MlperfComparison | None = None
    """Both sides scored by MLPerf's rule (``rule="mlperf"``; then no ``stats``)."""
    datasets: DatasetVerdict = field(default_factory=lambda: DatasetVerdict("unknown"))
    """The manifests of the data the two sides' runs read, compared."""


def _shown_metrics(records: Sequence[RunRecord], asked: Sequence[str]) -> list[str]:
    """Every metric, or the asked ones; a matrix point's main metric only, unless asked."""
    recorded = sorted({name for record in records for name in record.metrics})
    if asked:
        return [name for name in recorded if name in asked]
    if any(record.matrix is not None for record in records):
        main = main_metric(recorded)
        return [main] if main else recorded
    return recorded


def compare(
    a_stack: str,
    a_runs: Mapping[str, Sequence[StoredRun]],
    b_stack: str,
    b_runs: Mapping[str, Sequence[StoredRun]],
    *,
    metrics: Sequence[str] = (),
    experiments: Sequence[str] = (),
    resolve: float = DEFAULT_RESOLVE,
    check_log: LogCheck | None = None,
    health: HealthReport | None = None,
    expected: Mapping[tuple[str, str, str], Expected] | None = None,
    include_flagged: bool = False,
    rule: str = "welch",
    min_runs: int = DEFAULT_MIN_RUNS,
) -> list[Row]:
    """Every (experiment, metric) recorded on either side (or those asked for), sorted;
    ``health``: the two stacks' GPU health compared (a finding makes every row not
    comparable, :mod:`trainstack.health.verdict`); ``expected``: (stack, experiment, metric)
    -> the range its health predicts: runs outside it are suspect, left out; ``rule``:
    ``welch`` (failed and flagged runs left out) or ``mlperf`` (all counted)."""
    ranges = expected or {}
    names = sorted(set(a_runs) | set(b_runs))
    where = f"the results of {a_stack} or {b_stack}"
    check_known("--experiment", experiments, names, where)
    every = [run.record for runs in (*a_runs.values(), *b_runs.values()) for run in runs]
    check_known("--metric", metrics, {m for record in every for m in record.metrics}, where)
    rows = []
    for experiment in [name for name in names if not experiments or name in experiments]:
        a_kept, a_excluded = current_stored(a_runs.get(experiment, ()))
        b_kept, b_excluded = current_stored(b_runs.get(experiment, ()))
        a_all, b_all = [r.record for r in a_kept], [r.record for r in b_kept]
        scores_all = rule == "mlperf"  # MLPerf's rule scores every run, failed as the slowest
        a_counted, a_left = counted(a_kept, include_flagged or scores_all)
        b_counted, b_left = counted(b_kept, include_flagged or scores_all)
        if scores_all:
            a_left = b_left = ()
        a_records, b_records = [r.record for r in a_counted], [r.record for r in b_counted]
        environment = environment_verdict(experiment, a_stack, a_records, b_stack, b_records)
        data = dataset_verdict(experiment, a_stack, a_records, b_stack, b_records)
        logs = _log_problems(experiment, (*a_kept, *b_kept), check_log)
        usages = (usage_of(a_records), usage_of(b_records))
        for metric in _shown_metrics((*a_records, *b_records), metrics):
            a_range = ranges.get((a_stack, experiment, metric))
            b_range = ranges.get((b_stack, experiment, metric))
            a = _side(a_stack, a_records, a_excluded, metric, a_left, usages[0], a_all, a_range)
            b = _side(b_stack, b_records, b_excluded, metric, b_left, usages[1], b_all, b_range)
            first = _first_value(metric, a_records, b_records)
            reason = _not_comparable(experiment, metric, a, b) or logs
            for verdict in (data, environment):  # different bytes read first
                if not reason and not verdict.comparable:
                    reason = verdict.reason
            if not reason and health is not None and not health.comparable:
                reason = f"{experiment}: {health.reason()}"
            stats = scored = None
            if not reason and rule == "mlperf":
                scored = compare_scores(
                    _scored(a_all, metric), _scored(b_all, metric), first.higher_is_better, min_runs
                )
            elif not reason:
                stats = change_of(a.values, b.values, first.higher_is_better, resolve)
            rows.append(
                Row(
                    experiment=experiment,
                    metric=metric,
                    unit=first.unit,
                    higher_is_better=first.higher_is_better,
                    a=a,
                    b=b,
                    change=stats.estimate if stats else scored.change if scored else None,
                    comparable=not reason,
                    reason=reason,
                    environment=environment,
                    stats=stats,
                    health=health.summary() if health is not None else "",
                    mlperf=scored,
                    datasets=data,
                )
            )
    return rows


def _log_problems(experiment: str, runs: Sequence[StoredRun], check: LogCheck | None) -> str:
    if check is None:
        return ""
    problems = [problem for run in runs if (problem := check(run))]
    if not problems:
        return ""
    more = f"; and {len(problems) - 1} more" if len(problems) > 1 else ""
    return f"{experiment}: {problems[0]}{more}"


def _scored(records: Sequence[RunRecord], metric: str) -> list[tuple[int, float | None]]:
    """(run, value) of every run with ``metric``; a failed run's value is ``None``."""
    return [
        (record.run, None if record.failed else record.metrics[metric].value)
        for record in records
        if record.failed or metric in record.metrics
    ]


def _side(
    stack: str,
    records: Sequence[RunRecord],
    excluded: int,
    metric: str,
    left_out: tuple[tuple[int, str], ...] = (),
    usage: Usage | None = None,
    every: Sequence[RunRecord] = (),
    expected: Expected | None = None,
) -> Side:
    with_metric = [record for record in records if metric in record.metrics]
    suspect = tuple(
        (record.run, record.metrics[metric].value)
        for record in with_metric
        if expected is not None and not expected.contains(record.metrics[metric].value)
    )
    with_metric = [record for record in with_metric if record.run not in dict(suspect)]
    values = [record.metrics[metric] for record in with_metric]
    return Side(
        stack=stack,
        runs=tuple(record.run for record in with_metric),
        values=tuple(value.value for value in values),
        summary=summarize([value.value for value in values]) if values else None,
        digest=(records or every)[0].base_values_digest if (records or every) else None,
        excluded=excluded,
        scopes=tuple(sorted({value.scope for value in values})),
        overrides=records[0].overrides if records else {},
        drifted=tuple(
            (record.run, value.within.drift)
            for record, value in zip(with_metric, values, strict=True)
            if value.within and value.within.drifted and value.within.drift is not None
        ),
        expected=expected,
        suspect=suspect,
        left_out=left_out,
        usage=usage,
    )


def _first_value(metric: str, *sides: Sequence[RunRecord]) -> MetricValue:
    return next(
        record.metrics[metric] for side in sides for record in side if metric in record.metrics
    )


def _not_comparable(experiment: str, metric: str, a: Side, b: Side) -> str:
    for side in (a, b):
        if side.digest is None:
            return f"{experiment}: no results on {side.stack}"
        if side.summary is None and side.left_out:
            return (
                f"{experiment}: every run on {side.stack} with {metric} is left out (failed "
                "or flagged); --include-flagged counts the flagged ones"
            )
        if side.summary is None:
            return f"{experiment}: no run on {side.stack} reports {metric}"
    if a.digest != b.digest:
        sets = ""
        if a.overrides != b.overrides:
            sets = (
                f"; run with {overrides_words(a.overrides)} on {a.stack}, "
                f"{overrides_words(b.overrides)} on {b.stack}"
            )
        return (
            f"{experiment}: the experiment differs between the stacks (base-values digest "
            f"{_short(a.digest)} on {a.stack}, {_short(b.digest)} on {b.stack}{sets}); "
            f"see `trainstack diff {a.stack} {b.stack} --fairness`"
        )
    if len(a.scopes) > 1 or a.scopes != b.scopes:
        return (
            f"{experiment}: {metric} covers {_scopes(a)} on {a.stack} and {_scopes(b)} on "
            f"{b.stack}: values of different scopes never compare"
        )
    return ""


def _scopes(side: Side) -> str:
    return " and ".join(f"one {scope}" if scope != "job" else "the job" for scope in side.scopes)


def _short(digest: str | None) -> str:
    return (digest or "")[len("sha256:") :][:12]
