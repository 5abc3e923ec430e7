"""The runs' start times the health gate measures staleness against."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.results.records import images, stored
from tests.results.test_durations import timed
from trainstack.results.health import run_starts


def test_only_collected_runs_with_a_start_time_have_one() -> None:
    runs = stored(
        timed(1, "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z"),
        timed(2, None, "2026-12-01T11:00:00Z"),
        timed(3, "", None),
        timed(4, "yesterday", None),
        timed(5, "2026-12-02T09:30:05Z", None),
    )
    saved_logs = images("aiacc", [1344.0, 1350.0])  # recorded by results add: no job
    assert run_starts([*runs, *saved_logs]) == [
        datetime(2026, 12, 1, 10, 0, tzinfo=UTC),
        datetime(2026, 12, 2, 9, 30, 5, tzinfo=UTC),
    ]
