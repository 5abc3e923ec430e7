"""Which runs count in compare: failed and flagged runs left out (and listed) by Welch's
rule, flagged ones kept with --include-flagged, every run scored by MLPerf's."""

from __future__ import annotations

import pytest

from tests.results.records import failed, flagged, images
from trainstack.results.compare import compare
from trainstack.results.render_compare import compare_json, compare_text, notes_of
from trainstack.results.usage import counted


def _sides() -> tuple[dict, dict]:  # type: ignore[type-arg]
    a = images("aiacc", [1338.0, 1344.0, 1350.0, 1100.0, 1347.0])
    a[3] = flagged(a[3], "throttled", "hardware thermal slowdown on node n GPU 2")
    a[4] = failed(a[4])
    b = images("baseline", [1196.0, 1200.0, 1204.0, 1199.0, 1201.0])
    return {"imagenet-tensorflow": a}, {"imagenet-tensorflow": b}


def test_counted_leaves_out_failed_and_flagged_runs_with_why() -> None:
    a, _ = _sides()
    kept, left = counted(a["imagenet-tensorflow"], include_flagged=False)
    assert [run.record.run for run in kept] == [1, 2, 3]
    assert left == ((4, "flagged: throttled"), (5, "failed"))
    kept, left = counted(a["imagenet-tensorflow"], include_flagged=True)
    assert [run.record.run for run in kept] == [1, 2, 3, 4] and left == ((5, "failed"),)


def test_welch_leaves_them_out_and_says_how_many_and_why() -> None:
    a, b = _sides()
    (row,) = compare("aiacc", a, "baseline", b)
    assert row.a.runs == (1, 2, 3) and row.a.values == (1338.0, 1344.0, 1350.0)
    assert row.change == pytest.approx(0.12, abs=1e-4)
    assert (
        "imagenet-tensorflow: 2 run(s) on aiacc left out, 1 flagged and 1 failed (run 4: "
        "flagged: throttled; run 5: failed) (--include-flagged counts flagged runs)"
    ) in notes_of([row])
    assert "left out, 1 flagged and 1 failed" in compare_text([row], "aiacc", "baseline")
    (row,) = compare("aiacc", a, "baseline", b, include_flagged=True)
    assert row.a.runs == (1, 2, 3, 4)


def test_a_side_with_every_run_left_out_is_not_comparable() -> None:
    a, b = _sides()
    only_flagged = {"imagenet-tensorflow": [flagged(run) for run in a["imagenet-tensorflow"][:3]]}
    (row,) = compare("aiacc", only_flagged, "baseline", b)
    assert not row.comparable
    assert row.reason == (
        "imagenet-tensorflow: every run on aiacc with images_per_sec is left out (failed or "
        "flagged); --include-flagged counts the flagged ones"
    )


def test_mlperf_counts_every_run_and_prints_its_rule() -> None:
    a, b = _sides()
    (row,) = compare("aiacc", a, "baseline", b, rule="mlperf")
    assert row.stats is None and row.mlperf is not None
    # aiacc: 1338, 1344, 1350, 1100 (flagged, counted), failed run 5 = the slowest: drop 1350
    # and run 5; (1338 + 1344 + 1100) / 3 = 1260.67. baseline: drop 1204 and 1196; 1200.
    assert row.mlperf.a.score == pytest.approx(3782 / 3)
    assert row.mlperf.a.dropped == (3, 5) and row.mlperf.b.score == 1200.0
    assert row.change == pytest.approx(3782 / 3 / 1200 - 1)
    document = compare_json([row])
    assert '"rule": "mlperf"' in document and '"droppedRuns": [\n' in document
