"""Do two stacks read the same data? Their datasets compared by what they resolve to.

Each dataset's facts (``datasets.json`` of each plan: :mod:`trainstack.config.data_sources`)
are compared one by one: a file system, path, zone, storage type, protocol or mount
options that differ make an ``other`` finding naming the key, in each stack file, that
it comes from. A fact a stack *declares* of the data (``manifestSha256``, the manifest
digest of the bytes) is compared only when both stacks declare it; declared on one side,
or on neither for a populated file system (whose verify writes a manifest), it is
unknown: not evidence either way, so a note says that which bytes were read is checked
on the runs' results (``trainstack results compare``), never a finding.
"""

from __future__ import annotations

from typing import Any

from trainstack.config.data_sources import DECLARED_FACTS, FACTS
from trainstack.core.describe import describe_value
from trainstack.diff.model import Snapshot
from trainstack.diff.paths import MISSING

_ORDER = (*FACTS, *DECLARED_FACTS)


def dataset_findings(
    before: Snapshot, after: Snapshot, old_label: str, new_label: str
) -> tuple[list[tuple[str, str]], list[str]]:
    """(subject, detail) of every fact that differs, and the notes on declared facts that
    one side or neither declares."""
    found: list[tuple[str, str]] = []
    notes: list[str] = []
    for name in sorted(set(before.datasets) | set(after.datasets)):
        subject = f"dataset {name}"
        old, new = before.datasets.get(name), after.datasets.get(name)
        if old is None or new is None:
            found.append((subject, f"only in {old_label if new is None else new_label}"))
            continue
        # a populated file system has a manifest (its verify writes it): say when unknown
        declared = DECLARED_FACTS if "populate" in {*old, *new} else ()
        for fact in sorted({*old, *new, *declared}, key=_fact_order):
            was, now = _fact(old.get(fact)), _fact(new.get(fact))
            if fact in DECLARED_FACTS and MISSING in (was[0], now[0]):
                notes.append(_unknown(subject, fact, (old_label, was), (new_label, now)))
            elif was[0] != now[0]:
                found.append(
                    (
                        subject,
                        f"reads different data: {fact} {describe_value(was[0])} "
                        f"({old_label}: {was[1]}) -> {describe_value(now[0])} "
                        f"({new_label}: {now[1]})",
                    )
                )
    return found, notes


def _unknown(subject: str, fact: str, *sides: tuple[str, tuple[Any, str]]) -> str:
    declared = [f"{label} declares {describe_value(value)}" for label, (value, _) in sides
                if value is not MISSING]  # fmt: skip
    unknown = " and ".join(label for label, (value, _) in sides if value is MISSING)
    (a, _), (b, _) = sides
    said = "; ".join([f"{fact} unknown on {unknown} (manifestSha256 not declared)", *declared])
    return (
        f"{subject}: {said}: which bytes each stack reads is checked on its runs' results "
        f"(`trainstack results compare {a} {b}`)"
    )


def _fact_order(fact: str) -> tuple[int, str]:
    return (_ORDER.index(fact) if fact in _ORDER else len(_ORDER), fact)


def _fact(entry: Any) -> tuple[Any, str]:
    """(value, key) of one fact of ``datasets.json``; a missing fact is ``(absent)``."""
    if not isinstance(entry, dict):
        return MISSING, "not set"
    return entry.get("value"), str(entry.get("key", "?"))
