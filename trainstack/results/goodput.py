"""Goodput and model FLOPs utilisation of a run, recorded by ``results collect``.

Where the time of a run went, from the job's own times and its GPUs' telemetry:

- wall time: from the job's creation to its completion (or failure);
- queued: from its creation to its ``status.startTime`` (Kueue's admission, scheduling);
- to first step: from its creation to the first point at which its GPUs' mean SM
  activity reached :data:`ACTIVE_LEVEL` (images pulled, pods started, data opened, the
  model built: everything before the GPUs computed);
- training: the points at which they were at that level or above, times the step;
  goodput is training / wall time (the share of the run's wall time the GPUs trained);
- restarts: the restarts of its pods' containers still listed (``restartCount``), at
  least 1 when the job reports a ``Restarting`` condition.

Steady-state throughput: the median of the metric's within-run figures after the warm-up
when the log prints them at the metric's own scope, else the metric's value. MFU: that
throughput (samples/s for the whole job) x the experiment's FLOPs per sample / (the
job's GPUs x the GPU's peak in the declared precision, :mod:`trainstack.results.
gpu_peaks`) (the utilisation PaLM defines, Chowdhery et al. 2022, appendix B).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from trainstack.experiments.work import Work
from trainstack.metrics.extract import parse_timestamp
from trainstack.results.dcgm import SM_ACTIVE
from trainstack.results.gpu_peaks import peak_of
from trainstack.results.record import MetricValue
from trainstack.results.select import PREFERRED_METRICS
from trainstack.results.telemetry_model import ACTIVE_LEVEL, Goodput, RunTelemetry


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    if start is None or end is None or end < start:
        return None
    return (end - start).total_seconds()


def _active(telemetry: RunTelemetry | str, basis: list[str]) -> tuple[float, float] | None:
    """(seconds to the first active point, active seconds) from the run's SM activity."""
    if isinstance(telemetry, str):
        basis.append("to first step, training, goodput: telemetry not collected")
        return None
    series = telemetry.series.get(SM_ACTIVE)
    if not series:
        basis.append(f"to first step, training, goodput: no {SM_ACTIVE} series")
        return None
    active = [index for index, value in enumerate(series) if (value or 0) >= ACTIVE_LEVEL]
    if not active:
        basis.append(f"to first step: the GPUs never reached SM active {ACTIVE_LEVEL}")
        return None
    step = telemetry.step_seconds
    return active[0] * step, len(active) * step


def restarts_of(status: Mapping[str, Any], pods: Sequence[Mapping[str, Any]]) -> int:
    """Container restarts of ``pods``; at least 1 when the job reports ``Restarting``."""
    count = 0
    for pod in pods:
        for container in (pod.get("status") or {}).get("containerStatuses") or []:
            restarts = container.get("restartCount") if isinstance(container, dict) else None
            count += restarts if type(restarts) is int and restarts > 0 else 0
    conditions = status.get("conditions") or []
    restarted = any(isinstance(c, dict) and c.get("type") == "Restarting" for c in conditions)
    return max(count, 1) if restarted else count


def steady_throughput(
    metrics: Mapping[str, MetricValue], wanted: str | None
) -> tuple[str, float, MetricValue] | None:
    """(metric, steady value, its record) of ``wanted``, else of the first preferred rate."""
    names = [wanted] if wanted else [n for n in PREFERRED_METRICS if n in metrics]
    for name in names:
        value = metrics.get(name)
        if value is None or not value.higher_is_better:
            continue
        within = value.within
        if within is not None and within.values and within.scope == value.scope:
            return name, statistics.median(within.values), value
        return name, value.value, value
    return None


def goodput_of(
    *,
    created: str | None,
    started: str | None,
    ended: datetime | None,
    telemetry: RunTelemetry | str,
    restarts: int,
    metrics: Mapping[str, MetricValue],
    gpus: int,
    products: Sequence[str | None],
    work: Work | None,
) -> Goodput:
    """The run's goodput and MFU, with the basis of each figure."""
    basis: list[str] = []
    start = parse_timestamp(created)
    wall = _seconds(start, ended)
    active = _active(telemetry, basis) if wall else None
    steady = steady_throughput(metrics, work.metric if work else None)
    utilisation = None
    if work is not None:
        utilisation = _mfu(steady, work, gpus, products, basis)
    return Goodput.model_validate(
        {
            "wallSeconds": wall,
            "queuedSeconds": _seconds(start, parse_timestamp(started)),
            "toFirstStepSeconds": active[0] if active else None,
            "trainingSeconds": active[1] if active else None,
            "goodput": round(min(1.0, active[1] / wall), 4) if active and wall else None,
            "restarts": restarts,
            "throughput": steady[1] if steady else None,
            "metric": steady[0] if steady else None,
            "mfu": utilisation,
            "basis": basis,
        }
    )


def _mfu(
    steady: tuple[str, float, MetricValue] | None,
    work: Work,
    gpus: int,
    products: Sequence[str | None],
    basis: list[str],
) -> float | None:
    if steady is None:
        basis.append(f"MFU: no {work.metric} in the log")
        return None
    if steady[2].scope != "job":
        basis.append(f"MFU: {work.metric} covers one {steady[2].scope}, not the whole job")
        return None
    product, entry = peak_of(products)
    peak = entry.peak(work.precision) if entry else None
    if entry is None or peak is None or gpus < 1:
        basis.append(f"MFU: no {work.precision} peak known for {product or 'the GPU (unknown)'}")
        return None
    value = steady[1] * work.flops_per_sample / (gpus * peak * 1e12)
    checked = "" if entry.verified else " (figure read in a copy of the vendor's document)"
    basis.append(
        f"MFU: {steady[1]:g} {steady[2].unit} x {work.flops_per_sample:g} FLOPs / ({gpus} x "
        f"{peak:g} TFLOPS {work.precision}, {entry.name}: {entry.source}){checked}"
    )
    return round(value, 4)
