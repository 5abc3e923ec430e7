"""From a run's range answer to what its results file keeps: per field, for the run and
per node, the summary (mean, p5, p95 of the samples; a counter's increase) and the series.

How each kind of field is read (:data:`~trainstack.results.dcgm.Kind`):

- ``gauge``: its samples as they are; the series is the mean over the GPUs at each point;
- ``counter``: its increase over the window on each GPU (a drop is a reset: counted from
  0), summed over the GPUs; the series is the increase since the window's start;
- ``bitmask`` (clock-event reasons): ``mean`` is the share of samples with a throttling
  reason (:data:`~trainstack.results.dcgm.THROTTLING_EVENTS`), the series that share;
- ``last`` (the last XID): no summary, the series is the largest value over the GPUs.

Percentiles are numpy's default (linear interpolation between the closest ranks).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from trainstack.config.telemetry import DcgmLabels
from trainstack.live.prometheus import Series
from trainstack.results.dcgm import BY_NAME, FIELDS, THROTTLING_EVENTS, DcgmField
from trainstack.results.telemetry_model import (
    MAX_NODE_VALUES,
    FieldStats,
    NodeTelemetry,
)
from trainstack.results.telemetry_query import Window

THROTTLING_MASK = sum(bit for bit, _ in THROTTLING_EVENTS)
UNKNOWN_NODE = "(no node label)"


@dataclass(frozen=True)
class GpuSeries:
    """One field on one GPU, on the window's grid (NaN where it has no value)."""

    node: str
    gpu: str
    model: str | None
    field: DcgmField
    values: np.ndarray
    missing: int


def on_grid(series: Iterable[Series], window: Window, labels: DcgmLabels) -> list[GpuSeries]:
    """The answer's series of known fields, each on the window's points."""
    found = []
    for item in series:
        field = BY_NAME.get(item.labels.get("__name__", ""))
        if field is None:
            continue
        grid = np.full(window.points, np.nan)
        if item.times:
            index = np.rint((np.asarray(item.times) - window.start) / window.step).astype(int)
            keep = (index >= 0) & (index < window.points)
            grid[index[keep]] = np.asarray(item.values)[keep]
        found.append(
            GpuSeries(
                item.labels.get(labels.node, UNKNOWN_NODE),
                item.labels.get(labels.gpu, "?"),
                item.labels.get("modelName"),
                field,
                grid,
                item.not_a_number,
            )
        )
    return found


def _number(value: float) -> float:
    """4 significant digits (what a reader compares; files stay small)."""
    return float(f"{value:.4g}")


def _kept(values: np.ndarray) -> list[float | None]:
    return [None if np.isnan(value) else _number(float(value)) for value in values]


def _increase(values: np.ndarray) -> np.ndarray:
    """The counter's increase since its first value, at each point: NaN before it, the
    last known total over a gap (a counter never goes back but by a reset)."""
    known = ~np.isnan(values)
    if not known.any():
        return values.copy()
    steps = np.diff(values[known], prepend=values[known][0])
    steps = np.where(steps < 0, values[known], steps)  # a reset starts again from 0
    last = np.maximum.accumulate(np.where(known, np.arange(len(values)), -1))
    totals = np.cumsum(steps)[np.maximum(np.cumsum(known) - 1, 0)]
    return np.where(last >= 0, totals, np.nan)


def _columns(stack: np.ndarray, how: str) -> np.ndarray:
    """Per point (column): the mean, sum or largest of the values there; NaN where none."""
    known = ~np.isnan(stack)
    counts = known.sum(axis=0)
    if how == "max":
        largest = np.where(known, stack, -np.inf).max(axis=0)
        return np.where(counts > 0, largest, np.nan)
    sums = np.where(known, stack, 0.0).sum(axis=0)
    if how == "sum":
        return np.where(counts > 0, sums, np.nan)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def _throttled(values: np.ndarray) -> np.ndarray:
    """1 where a sample holds a throttling reason, 0 where it holds none, NaN where none."""
    known = ~np.isnan(values)
    bits = np.where(known, values, 0).astype(np.int64)
    return np.where(known, ((bits & THROTTLING_MASK) != 0).astype(float), np.nan)


def _per_point(field: DcgmField, members: Sequence[GpuSeries]) -> np.ndarray:
    """One value per point of the GPUs' ``field`` (NaN where none has a value)."""
    stack = np.vstack([member.values for member in members])
    if field.kind == "counter":
        return _columns(np.vstack([_increase(row) for row in stack]), "sum")
    if field.kind == "bitmask":
        return _columns(_throttled(stack), "mean")
    return _columns(stack, "max" if field.kind == "last" else "mean")


def stats_of(field: DcgmField, members: Sequence[GpuSeries]) -> FieldStats:
    """The summary of ``field`` over the GPUs ``members``."""
    stack = np.vstack([member.values for member in members])
    finite = stack[~np.isnan(stack)]
    missing = sum(member.missing for member in members)
    mean = p5 = p95 = increase = None
    if field.kind == "gauge" and finite.size:
        mean = _number(float(finite.mean()))
        p5, p95 = (_number(float(x)) for x in np.percentile(finite, [5, 95]))
    elif field.kind == "bitmask" and finite.size:
        mean = _number(float(_throttled(finite).mean()))
    elif field.kind == "counter" and finite.size:
        rows = [_increase(row) for row in stack]
        increase = _number(sum(float(np.nanmax(row)) for row in rows if (~np.isnan(row)).any()))
    return FieldStats.model_validate(
        {
            "mean": mean,
            "p5": p5,
            "p95": p95,
            "samples": int(finite.size),
            "missing": missing,
            "increase": increase,
        }
    )


def _binned(values: np.ndarray, points: int) -> np.ndarray:
    """``values`` averaged over consecutive bins, to at most ``points`` values."""
    if len(values) <= points:
        return values
    size = -(-len(values) // points)
    bins = -(-len(values) // size)
    padded = np.concatenate([values, np.full(size * bins - len(values), np.nan)])
    return _columns(padded.reshape(bins, size).T, "mean")


def summarised(
    gpu_series: Sequence[GpuSeries],
) -> tuple[dict[str, FieldStats], dict[str, list[float | None]], list[NodeTelemetry]]:
    """Per field: the run's summary and series; and per node the same (series binned to
    the nodes' budget, :data:`~trainstack.results.telemetry_model.MAX_NODE_VALUES`)."""
    by_field: dict[str, list[GpuSeries]] = defaultdict(list)
    by_node: dict[str, list[GpuSeries]] = defaultdict(list)
    for item in gpu_series:
        by_field[item.field.name].append(item)
        by_node[item.node].append(item)
    fields = {field.name: field for field in FIELDS if field.name in by_field}
    run_stats = {name: stats_of(field, by_field[name]) for name, field in fields.items()}
    run_series = {name: _kept(_per_point(field, by_field[name])) for name, field in fields.items()}
    node_fields = sum(len({m.field.name for m in members}) for members in by_node.values())
    budget = max(1, MAX_NODE_VALUES // max(node_fields, 1))
    nodes = []
    for node in sorted(by_node):
        members = by_node[node]
        mine = {name: [m for m in members if m.field.name == name] for name in fields}
        mine = {name: found for name, found in mine.items() if found}
        nodes.append(
            NodeTelemetry(
                node=node,
                gpus=sorted({m.gpu for m in members}, key=lambda gpu: (len(gpu), gpu)),
                model=next((m.model for m in members if m.model), None),
                fields={name: stats_of(fields[name], found) for name, found in mine.items()},
                series={
                    name: _kept(_binned(_per_point(fields[name], found), budget))
                    for name, found in mine.items()
                },
            )
        )
    return run_stats, run_series, nodes
