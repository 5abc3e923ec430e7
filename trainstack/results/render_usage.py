"""The GPU telemetry and goodput part of ``results compare`` and the report, and the notes
on runs left out (failed, flagged)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainstack.console.tables import rounded
from trainstack.results.compare import Row, Side
from trainstack.results.usage import Usage

USAGE_HEADERS = [
    "experiment",
    "stack",
    "runs with telemetry",
    "SM active",
    "tensor active",
    "power W",
    "to first step s",
    "goodput",
    "restarts",
    "MFU",
]


def left_out_notes(rows: Sequence[Row]) -> list[str]:
    """Per experiment and side, the runs left out and why (once per experiment)."""
    notes = []
    for row in rows:
        for side in (row.a, row.b):
            if not side.left_out:
                continue
            flagged = sum(1 for _, why in side.left_out if why.startswith("flagged"))
            failed = len(side.left_out) - flagged
            each = "; ".join(f"run {run}: {why}" for run, why in side.left_out)
            keep = " (--include-flagged counts flagged runs)" if flagged else ""
            notes.append(
                f"{row.experiment}: {len(side.left_out)} run(s) on {side.stack} left out, "
                f"{flagged} flagged and {failed} failed ({each}){keep}"
            )
    return list(dict.fromkeys(notes))


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _plain(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def usage_cells(rows: Sequence[Row]) -> list[list[str]]:
    """One row per experiment and side that has telemetry or an MFU."""
    cells = []
    seen = set()
    for row in rows:
        for side in (row.a, row.b):
            usage = side.usage
            if usage is None or (row.experiment, side.stack) in seen:
                continue
            seen.add((row.experiment, side.stack))
            cells.append(
                [
                    row.experiment,
                    side.stack,
                    str(usage.telemetry),
                    _share(usage.sm_active),
                    _share(usage.tensor_active),
                    _plain(usage.power),
                    _plain(usage.to_first_step),
                    _share(usage.goodput),
                    str(usage.restarts),
                    _share(usage.mfu),
                ]
            )
    return cells


USAGE_LEGEND = (
    "GPU telemetry and goodput of the runs that count: means over the runs (SM and tensor "
    "active: share of cycles; to first step: from the job's creation; goodput: share of "
    "wall time the GPUs trained; MFU: model FLOPs utilisation); restarts: their sum"
)


def usage_json(side: Side) -> dict[str, Any] | None:
    usage: Usage | None = side.usage
    if usage is None:
        return None
    return {
        "runsWithTelemetry": usage.telemetry,
        "smActive": rounded(usage.sm_active),
        "tensorActive": rounded(usage.tensor_active),
        "powerWatts": rounded(usage.power),
        "toFirstStepSeconds": rounded(usage.to_first_step),
        "goodput": rounded(usage.goodput),
        "restarts": usage.restarts,
        "mfu": rounded(usage.mfu),
    }
