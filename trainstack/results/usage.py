"""Which runs count in ``results compare``, and what their GPUs did on each side.

Welch's rule counts a side's runs of its current experiment except failed ones (their job
failed: no steady figure) and flagged ones (throttled, an XID or ECC error, below the
SM-active floor: :mod:`trainstack.results.flags`), unless ``--include-flagged``; each run
left out is listed with why. MLPerf's rule counts them all
(:mod:`trainstack.results.mlperf`).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainstack.results.dcgm import POWER, SM_ACTIVE, TENSOR_ACTIVE
from trainstack.results.record import RunRecord
from trainstack.results.store import StoredRun


def counted(
    runs: Sequence[StoredRun], include_flagged: bool
) -> tuple[list[StoredRun], tuple[tuple[int, str], ...]]:
    """The runs whose values count, and (run, why) of each run left out."""
    kept, left = [], []
    for run in runs:
        record = run.record
        if record.failed:
            left.append((record.run, "failed"))
        elif record.flags and not include_flagged:
            left.append((record.run, "flagged: " + "; ".join(f.kind for f in record.flags)))
        else:
            kept.append(run)
    return kept, tuple(left)


@dataclass(frozen=True)
class Usage:
    """What the counted runs' GPUs did, and their goodput (means over the runs that have it)."""

    telemetry: int
    """Runs with telemetry collected."""
    sm_active: float | None
    tensor_active: float | None
    power: float | None
    to_first_step: float | None
    goodput: float | None
    restarts: int
    mfu: float | None


def _mean(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return statistics.fmean(known) if known else None


def _field(record: RunRecord, name: str) -> float | None:
    telemetry = record.telemetry
    if isinstance(telemetry, str):
        return None
    stats = telemetry.fields.get(name)
    return stats.mean if stats else None


def usage_of(records: Sequence[RunRecord]) -> Usage | None:
    """The side's usage; ``None`` when no run has telemetry or an MFU (nothing to show)."""
    with_telemetry = [r for r in records if not isinstance(r.telemetry, str)]
    goodputs = [r.goodput for r in records if r.goodput is not None]
    if not with_telemetry and not any(g.mfu is not None for g in goodputs):
        return None
    return Usage(
        telemetry=len(with_telemetry),
        sm_active=_mean(_field(r, SM_ACTIVE) for r in with_telemetry),
        tensor_active=_mean(_field(r, TENSOR_ACTIVE) for r in with_telemetry),
        power=_mean(_field(r, POWER) for r in with_telemetry),
        to_first_step=_mean(g.to_first_step_seconds for g in goodputs),
        goodput=_mean(g.goodput for g in goodputs),
        restarts=sum(g.restarts or 0 for g in goodputs),
        mfu=_mean(g.mfu for g in goodputs),
    )
