"""Why a run's figures are not a fair measure: the flags ``results collect`` records.

- ``throttled``: a GPU's clock-event reasons held a throttling reason
  (:data:`~trainstack.results.dcgm.THROTTLING_EVENTS`) in any sample, or its thermal
  violation time grew during the run;
- ``xid-error``: a GPU reported an XID (``DCGM_FI_DEV_XID_ERRORS`` is the last one it
  reported: a value there from the start of the window may predate the run, and says so);
- ``ecc-error``: a GPU's volatile single- or double-bit ECC error count grew;
- ``low-sm-active``: the run's GPUs, or one of them, were busy less than the stack's
  SM-active floor (mean of ``DCGM_FI_PROF_SM_ACTIVE`` over the window).

A field that was not exported cannot flag: a note says what was not checked.
``results compare`` leaves flagged runs out unless ``--include-flagged``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from trainstack.results.dcgm import (
    CLOCK_EVENTS,
    ECC_DOUBLE,
    ECC_SINGLE,
    SM_ACTIVE,
    THERMAL_VIOLATION,
    THROTTLING_EVENTS,
    XID,
)
from trainstack.results.telemetry_model import Flag, FlagKind
from trainstack.results.telemetry_summary import GpuSeries

MAX_NAMED = 3
"""GPUs named in one flag's reason; the others are counted."""
FLOOR_KEY = "trainstack:telemetry.smActiveFloor"


def _where(series: GpuSeries) -> str:
    return f"node {series.node} GPU {series.gpu}"


def _flag(kind: FlagKind, found: Sequence[str]) -> list[Flag]:
    if not found:
        return []
    more = f"; and {len(found) - MAX_NAMED} more GPU(s)" if len(found) > MAX_NAMED else ""
    return [Flag(kind=kind, reason="; ".join(found[:MAX_NAMED]) + more)]


def _each(
    series: Sequence[GpuSeries], name: str, say: Callable[[GpuSeries, np.ndarray], str | None]
) -> list[str] | None:
    """What ``say`` finds on each GPU's ``name`` series; ``None`` when none was exported."""
    mine = [item for item in series if item.field.name == name]
    if not mine:
        return None
    found = []
    for item in sorted(mine, key=lambda item: (item.node, len(item.gpu), item.gpu)):
        values = item.values[~np.isnan(item.values)]
        text = say(item, values) if values.size else None
        if text:
            found.append(text)
    return found


def _throttling(item: GpuSeries, values: np.ndarray) -> str | None:
    bits = values.astype(np.int64)
    seen = [(bit, words) for bit, words in THROTTLING_EVENTS if (bits & bit).any()]
    if not seen:
        return None
    hit = int(np.count_nonzero(bits & sum(bit for bit, _ in THROTTLING_EVENTS)))
    reasons = ", ".join(words for _, words in seen)
    return f"{reasons} on {_where(item)} in {hit} of {values.size} samples"


def _grew(unit: str) -> Callable[[GpuSeries, np.ndarray], str | None]:
    def say(item: GpuSeries, values: np.ndarray) -> str | None:
        steps = np.diff(values)
        grown = float(np.where(steps < 0, values[1:], steps).sum())
        return f"{grown:g} {unit} on {_where(item)}" if grown > 0 else None

    return say


def _xid(item: GpuSeries, values: np.ndarray) -> str | None:
    codes = [int(code) for code in dict.fromkeys(values.tolist()) if code]
    if not codes:
        return None
    listed = ", ".join(str(code) for code in codes)
    during = "during the run" if values[0] == 0 or len(codes) > 1 else "from the window's start"
    return f"XID {listed} on {_where(item)} (reported {during})"


def _idle(floor: float) -> Callable[[GpuSeries, np.ndarray], str | None]:
    def say(item: GpuSeries, values: np.ndarray) -> str | None:
        mean = float(values.mean())
        if mean >= floor:
            return None
        return f"{_where(item)} SM active {mean:.2f} on average, below the floor {floor:g}"

    return say


def flags_of(series: Sequence[GpuSeries], floor: float) -> tuple[list[Flag], list[str]]:
    """The run's flags, and what could not be checked (a field not exported)."""
    flags: list[Flag] = []
    notes: list[str] = []
    checks: tuple[tuple[FlagKind, tuple[tuple[str, Callable[..., str | None]], ...]], ...] = (
        ("throttled", ((CLOCK_EVENTS, _throttling), (THERMAL_VIOLATION, _grew("ns thermal")))),
        ("xid-error", ((XID, _xid),)),
        ("ecc-error", ((ECC_SINGLE, _grew("single-bit")), (ECC_DOUBLE, _grew("double-bit")))),
        ("low-sm-active", ((SM_ACTIVE, _idle(floor)),)),
    )
    for kind, fields in checks:
        found: list[str] = []
        missing = []
        for name, say in fields:
            seen = _each(series, name, say)
            if seen is None:
                missing.append(name)
            else:
                found += seen
        flags += _flag(kind, found)
        if missing:
            notes.append(
                f"{kind} not checked on {', '.join(missing)}: not exported (add it to the "
                "exporter's counters CSV)"
            )
    if not any(item.field.name == SM_ACTIVE for item in series):
        notes[-1] += f"; the floor {floor:g} ({FLOOR_KEY}) was not checked"
    return flags, notes
