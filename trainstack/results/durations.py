"""How long recorded runs took: the job's start to its completion, as the cluster said.

Only runs read from the cluster (``results collect``) know it: the job's
``status.startTime`` and ``status.completionTime``. A run recorded from a saved log
(``results add``) has no timing and counts as untimed, never as zero.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from trainstack.core.errors import TrainstackError
from trainstack.results.record import RunRecord
from trainstack.results.store import Display, StoredRun, read_stack_runs

if TYPE_CHECKING:  # results compare imports this module and never resolves experiments
    from trainstack.experiments.resolve import Experiment


def run_seconds(record: RunRecord) -> Decimal | None:
    """Seconds from the job's start to its completion (``None``: not known, or not after)."""
    job = record.job
    if job is None or job.start_time is None or job.completion_time is None:
        return None
    try:
        start = datetime.datetime.fromisoformat(job.start_time)
        end = datetime.datetime.fromisoformat(job.completion_time)
        seconds = (end - start).total_seconds()
    except (ValueError, TypeError, OverflowError):
        return None  # not the RFC 3339 time the API writes (or one naive, one aware)
    return Decimal(str(seconds)).normalize() if seconds > 0 else None


def current_seconds(runs: Sequence[StoredRun], digest: str) -> list[Decimal]:
    """The timed runs among ``runs`` of the experiment as it is now (base-values
    ``digest``), in seconds, by run number."""
    timed = (
        run_seconds(run.record)
        for run in sorted(runs, key=lambda run: run.record.run)
        if run.record.base_values_digest == digest
    )
    return [seconds for seconds in timed if seconds is not None]


def recorded_seconds(
    root: Path, stack: str, experiments: Sequence[Experiment], display: Display
) -> tuple[Mapping[str, list[Decimal]], str | None]:
    """Per experiment of ``experiments`` (its matrix point's name), the seconds of its timed
    runs recorded on ``stack`` with its current base values; and a note when the results
    could not be read (the plan then counts declared lengths only)."""
    try:
        stored = read_stack_runs(root, stack, display)
    except TrainstackError as error:
        first = str(error).splitlines()[0]
        return (
            {},
            f"cost: the recorded runs of {stack} were not read ({first}): run lengths "
            "are the declared ones",
        )
    found: dict[str, list[Decimal]] = {}
    for experiment in experiments:
        runs = stored.get(experiment.point_name)
        if runs and experiment.point_name not in found:
            seconds = current_seconds(runs, experiment.base_digest)
            if seconds:
                found[experiment.point_name] = seconds
    return found, None
