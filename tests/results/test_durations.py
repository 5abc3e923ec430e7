"""How long a recorded run took: the job's start to its completion, only when both are known."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.results.records import DIGEST_A, DIGEST_B, record, stored
from trainstack.results.durations import current_seconds, run_seconds
from trainstack.results.record import JobInfo, RunRecord


def timed(run: int, start: str | None, end: str | None, digest: str = DIGEST_A) -> RunRecord:
    job = JobInfo(
        kind="MPIJob",
        name="imagenet-tensorflow",
        namespace="vision",
        phase="Succeeded",
        startTime=start,
        completionTime=end,
    )
    plain = record("aiacc", "imagenet-tensorflow", run, {"x": (1.0, "s", False)}, digest)
    return plain.model_copy(update={"job": job, "source": "cluster"})


def test_a_collected_run_took_its_start_to_its_completion() -> None:
    run = timed(1, "2026-12-01T10:00:00Z", "2026-12-01T11:30:15Z")
    assert run_seconds(run) == Decimal(5415)


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (None, "2026-12-01T11:30:15Z"),
        ("2026-12-01T10:00:00Z", None),
        ("2026-12-01T10:00:00Z", "2026-12-01T10:00:00Z"),  # no time at all
        ("2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z"),  # ended before it started
        ("yesterday", "2026-12-01T10:00:00Z"),
        ("2026-12-01T10:00:00", "2026-12-01T11:00:00Z"),  # one naive, one aware
    ],
)
def test_anything_else_is_untimed_never_zero(start: str | None, end: str | None) -> None:
    assert run_seconds(timed(1, start, end)) is None


def test_a_run_from_a_saved_log_is_untimed() -> None:
    assert run_seconds(record("aiacc", "x", 1, {"x": (1.0, "s", False)})) is None


def test_only_the_timed_runs_of_the_experiment_as_it_is_now_count() -> None:
    runs = stored(
        timed(1, "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z", DIGEST_B),  # edited since
        timed(2, "2026-12-01T10:00:00Z", "2026-12-01T10:50:00Z"),
        timed(3, None, None),
        timed(4, "2026-12-01T10:00:00Z", "2026-12-01T10:40:00Z"),
    )
    assert current_seconds(runs, DIGEST_A) == [Decimal(3000), Decimal(2400)]
