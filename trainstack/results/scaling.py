"""``results scaling STACK MATRIX``: a matrix's points against total GPUs (workload 4).

Each point's metric (mean of its current runs) is set against the point with the fewest
GPUs: speed-up is ``x(N) / x(base)`` for a throughput, ``t(base) / t(N)`` for a time, and
scaling efficiency is the speed-up over the linear one (``GPUs(N) / GPUs(base)``).
Scale-up points keep the fewest workers (more GPUs per worker: 1 node x 1, 2, 4 GPUs),
scale-out points the fewest GPUs per worker (more workers: 1, 2, 4 nodes x 1 GPU); the
point with both (1 x 1) is the start of both series.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainstack.core.errors import ResultsError
from trainstack.results.current import current_runs
from trainstack.results.record import RunRecord, Shape
from trainstack.results.select import check_known, main_metric
from trainstack.results.stats import summarize
from trainstack.results.store import StoredRun

SCALE_UP, SCALE_OUT, MIXED = "scale-up", "scale-out", "mixed"


@dataclass(frozen=True)
class Point:
    """One point of the matrix with its metric and how it scales."""

    experiment: str
    series: tuple[str, ...]
    gpus: int
    workers: int
    gpus_per_worker: int
    runs: int
    mean: float
    stdev: float | None
    speedup: float
    efficiency: float


@dataclass(frozen=True)
class Scaling:
    """A matrix's scaling on one stack."""

    stack: str
    matrix: str
    metric: str
    unit: str
    higher_is_better: bool
    base: str
    points: tuple[Point, ...]
    missing: tuple[str, ...]
    """Points of the matrix with no results for the metric."""

    def series(self, name: str) -> list[Point]:
        """The points of one series, by GPUs."""
        return [point for point in self.points if name in point.series]


def scaling(
    stack: str,
    matrix: str,
    point_names: Sequence[str],
    runs: Mapping[str, Sequence[StoredRun]],
    metric: str | None = None,
    experiments: Sequence[str] = (),
) -> Scaling:
    """The scaling of ``matrix``'s points (``point_names``, or the ``experiments`` among
    them) from their recorded runs."""
    check_known("--experiment", experiments, point_names, f"matrix {matrix}")
    point_names = [name for name in point_names if not experiments or name in experiments]
    current = {name: current_runs(runs.get(name, ()))[0] for name in point_names}
    chosen = _metric(stack, matrix, current, metric)
    measured = {
        name: [r for r in records if chosen in r.metrics] for name, records in current.items()
    }
    present = {name: records for name, records in measured.items() if records}
    sample = next(iter(present.values()))[0].metrics[chosen]
    shapes = {name: records[-1].shape for name, records in present.items()}
    base = min(present, key=lambda name: (shapes[name].gpus, name))
    return Scaling(
        stack=stack,
        matrix=matrix,
        metric=chosen,
        unit=sample.unit,
        higher_is_better=sample.higher_is_better,
        base=base,
        points=tuple(_points(present, chosen, sample.higher_is_better, shapes, base)),
        missing=tuple(name for name in point_names if name not in present),
    )


def _metric(
    stack: str, matrix: str, current: Mapping[str, Sequence[RunRecord]], metric: str | None
) -> str:
    """The metric asked for, else the first preferred one the points report, else any."""
    available = sorted({m for records in current.values() for r in records for m in r.metrics})
    if not available:
        raise ResultsError(
            f"matrix {matrix} on {stack}: no results recorded for its points "
            f"({', '.join(current) or 'none'}); record runs with `trainstack results collect "
            f"{stack}` or `trainstack results add {stack} POINT LOGFILE`"
        )
    if metric is not None:
        check_known("--metric", [metric], available, f"matrix {matrix} on {stack}")
        return metric
    return main_metric(available) or available[0]


def _points(
    present: Mapping[str, Sequence[RunRecord]],
    metric: str,
    higher_is_better: bool,
    shapes: Mapping[str, Shape],
    base: str,
) -> list[Point]:
    """Each point's mean, set against ``base``'s, by GPUs then workers."""
    means = {name: _mean(records, metric) for name, records in present.items()}
    fewest_workers = min(shape.workers for shape in shapes.values())
    fewest_gpus = min(shape.gpus_per_worker for shape in shapes.values())
    points = []
    for name in sorted(present, key=lambda n: (shapes[n].gpus, shapes[n].workers, n)):
        shape = shapes[name]
        summary = summarize([r.metrics[metric].value for r in present[name]])
        ratio = means[name] / means[base] if higher_is_better else means[base] / means[name]
        linear = shape.gpus / shapes[base].gpus if shapes[base].gpus else 1.0
        points.append(
            Point(
                experiment=name,
                series=_series(shape, fewest_workers, fewest_gpus),
                gpus=shape.gpus,
                workers=shape.workers,
                gpus_per_worker=shape.gpus_per_worker,
                runs=summary.runs,
                mean=summary.mean,
                stdev=summary.stdev,
                speedup=ratio,
                efficiency=ratio / linear if linear else 0.0,
            )
        )
    return points


def _series(shape: Shape, fewest_workers: int, fewest_gpus: int) -> tuple[str, ...]:
    """Scale-up (fewest workers), scale-out (fewest GPUs per worker), both, or mixed."""
    return tuple(
        label
        for label, member in (
            (SCALE_UP, shape.workers == fewest_workers),
            (SCALE_OUT, shape.gpus_per_worker == fewest_gpus),
        )
        if member
    ) or (MIXED,)


def _mean(records: Sequence[RunRecord], metric: str) -> float:
    return summarize([record.metrics[metric].value for record in records]).mean
