"""compare: change of A relative to B, comparability by base-values digest."""

from __future__ import annotations

import pytest

from tests.results.records import DIGEST_A, DIGEST_B, images, record, stored
from trainstack.results.compare import compare, relative_change


def test_workload_1_change_is_twelve_percent() -> None:
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0])},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0])},
    )
    assert row.comparable and row.reason == ""
    assert row.change == pytest.approx(0.12)  # 1344 / 1200 - 1
    assert (row.metric, row.unit, row.higher_is_better) == ("images_per_sec", "images/sec", True)


def test_lower_is_better_is_inverted_so_positive_means_a_is_better() -> None:
    # Workload 4, 4 GPUs: 82 s scale-up (A) against 89 s scale-out (B): A is faster.
    assert relative_change(82.0, 89.0, higher_is_better=False) == pytest.approx(89 / 82 - 1)
    assert relative_change(89.0, 82.0, higher_is_better=False) < 0
    assert relative_change(1.0, 0.0, higher_is_better=True) is None


def test_means_and_deviations_of_several_runs() -> None:
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1338.0, 1344.0, 1350.0])},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1196.0, 1200.0, 1204.0])},
    )
    assert row.a.summary is not None and row.b.summary is not None
    assert (row.a.summary.mean, row.a.summary.stdev) == (1344.0, 6.0)
    assert (row.b.summary.mean, row.b.summary.stdev) == (1200.0, 4.0)
    assert row.a.runs == (1, 2, 3)
    assert row.change == pytest.approx(0.12)


def test_different_base_values_are_not_comparable_and_name_the_experiment() -> None:
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0], DIGEST_A)},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0], DIGEST_B)},
    )
    assert not row.comparable and row.change is None
    assert row.reason.startswith("imagenet-tensorflow: the experiment differs between the stacks")
    assert "aaaaaaaaaaaa on aiacc, bbbbbbbbbbbb on baseline" in row.reason


def test_only_runs_with_the_latest_digest_count() -> None:
    a = stored(
        record(
            "aiacc",
            "imagenet-tensorflow",
            1,
            {"images_per_sec": (900.0, "images/sec", True)},
            DIGEST_B,
        ),
        record("aiacc", "imagenet-tensorflow", 2, {"images_per_sec": (1344.0, "images/sec", True)}),
    )
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": a},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0])},
    )
    assert row.a.runs == (2,) and row.a.excluded == 1
    assert row.change == pytest.approx(0.12)


def test_missing_side_or_metric() -> None:
    rows = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0])},
        "baseline",
        {
            "keras-lstm-1x1": stored(
                record("baseline", "keras-lstm-1x1", 1, {"duration": (150.0, "s", False)})
            )
        },
    )
    assert [(r.experiment, r.metric, r.comparable) for r in rows] == [
        ("imagenet-tensorflow", "images_per_sec", False),
        ("keras-lstm-1x1", "duration", False),
    ]
    assert rows[0].reason == "imagenet-tensorflow: no results on baseline"
    assert rows[1].reason == "keras-lstm-1x1: no results on aiacc"
