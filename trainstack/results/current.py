"""Which runs of a side count: those of the experiment as it ran last.

A side's runs count when their base-values digest and ``--set`` values (``trainstack
run``) are those of its latest run; earlier runs of an edited experiment, and runs of
other ``--set`` values, are left out and counted (``results compare``, ``results
scaling``).
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.experiments.overrides import recorded_json
from trainstack.results.record import RunRecord
from trainstack.results.store import StoredRun


def current_runs(runs: Sequence[StoredRun]) -> tuple[list[RunRecord], int]:
    """The runs with the latest run's digest, and how many earlier runs were left out."""
    kept, excluded = current_stored(runs)
    return [run.record for run in kept], excluded


def current_stored(runs: Sequence[StoredRun]) -> tuple[list[StoredRun], int]:
    """The stored runs with the latest run's digest and ``--set`` values, and how many
    earlier runs were left out."""
    if not runs:
        return [], 0
    latest = _what_ran(max(runs, key=lambda run: run.record.run).record)
    kept = [run for run in runs if _what_ran(run.record) == latest]
    return kept, len(runs) - len(kept)


def _what_ran(record: RunRecord) -> tuple[str, str]:
    """The job a run ran: its base-values digest, and its ``--set`` values (two runs of
    other ``--set`` values are never counted together, even where they did not change the
    digest)."""
    return record.base_values_digest, recorded_json(record.overrides)
