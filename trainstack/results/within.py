"""Within-run figures of a metric: the warm-up left out, the drift measured and flagged.

A run is *drifted* when the mean of the last third of its figures (after the warm-up)
differs from the mean of the first third by more than
:data:`~trainstack.results.record.DRIFT_THRESHOLD` (5%) of their overall mean: the job
slowed down or sped up as it ran (thermal throttling, a noisy neighbour, caching), so
its total is not a steady-state figure. Such runs are flagged in the results file and in
``compare``, never dropped. tf_cnn_benchmarks prints averages over the steps so far,
which damp a drift: its flag is a lower bound.
"""

from __future__ import annotations

import statistics

from trainstack.metrics import Intervals
from trainstack.results.record import DRIFT_THRESHOLD, MAX_INTERVALS, WithinRun

MIN_FOR_DRIFT = 4


def drift_of(values: list[float]) -> float | None:
    """(last third's mean - first third's mean) / mean, from :data:`MIN_FOR_DRIFT` values."""
    if len(values) < MIN_FOR_DRIFT:
        return None
    third = len(values) // 3
    scale = max(values)
    scaled = [value / scale for value in values]
    first, last = statistics.fmean(scaled[:third]), statistics.fmean(scaled[-third:])
    return (last - first) / statistics.fmean(scaled)


def within_run(intervals: Intervals, declared_warmup: int | None) -> WithinRun:
    """The figures after the warm-up rule, and their drift."""
    if declared_warmup is None:
        rule = f"the tool's own ({intervals.tool_warmup})" if intervals.tool_warmup else "none"
        dropped = 0
    else:
        rule = f"declared: the first {declared_warmup} figures"
        dropped = min(declared_warmup, len(intervals.values))
    kept = list(intervals.values[dropped:])[-MAX_INTERVALS:]
    drift = drift_of(kept)
    return WithinRun.model_validate(
        {
            "values": kept,
            "scope": intervals.scope,
            "source": intervals.source,
            "warmup": dropped,
            "warmupRule": rule,
            "drift": None if drift is None else round(drift, 6),
            "drifted": drift is not None and abs(drift) > DRIFT_THRESHOLD,
        }
    )
