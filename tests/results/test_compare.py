"""compare: change of A relative to B, comparability by base-values digest."""

from __future__ import annotations

import pytest

from tests.results.records import DIGEST_A, DIGEST_B, images, record, stored
from trainstack.core.errors import ResultsError
from trainstack.results.compare import compare
from trainstack.results.record import RunRecord
from trainstack.results.store import StoredRun


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
    def keras(stack: str, seconds: float) -> dict[str, list[StoredRun]]:
        return {"x": stored(record(stack, "x", 1, {"train_time": (seconds, "s", False)}))}

    (row,) = compare("aiacc", keras("aiacc", 82.0), "baseline", keras("baseline", 89.0))
    assert row.change == pytest.approx(89 / 82 - 1)
    (row,) = compare("aiacc", keras("aiacc", 89.0), "baseline", keras("baseline", 82.0))
    assert row.change is not None and row.change < 0


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
    assert row.change == pytest.approx(0.12, abs=1e-4)  # geometric means: 1343.99 / 1200.00
    assert row.stats is not None and row.stats.interval is not None
    assert row.stats.interval[0] > 0  # the whole interval is a gain


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


def _with(metric: str, value: float, **changes: object) -> RunRecord:
    base = record("aiacc", "imagenet-tensorflow", 1, {metric: (value, "images/sec", True)})
    document = base.model_dump(by_alias=True)
    document["metrics"][metric].update(changes)
    return RunRecord.model_validate(document)


def test_a_per_rank_figure_never_compares_with_a_job_total() -> None:
    rank = _with("images_per_sec", 84.0, scope="rank")
    job = record("baseline", "imagenet-tensorflow", 1, {"images_per_sec": (1200.0, "x", True)})
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": stored(rank)},
        "baseline",
        {"imagenet-tensorflow": stored(job)},
    )
    assert not row.comparable and row.change is None
    assert row.reason == (
        "imagenet-tensorflow: images_per_sec covers one rank on aiacc and the job on "
        "baseline: values of different scopes never compare"
    )


def test_a_log_that_changed_after_recording_makes_its_pair_not_comparable() -> None:
    a = {"imagenet-tensorflow": images("aiacc", [1338.0, 1350.0])}
    b = {"imagenet-tensorflow": images("baseline", [1196.0, 1204.0])}

    def check(run: StoredRun) -> str:
        return "run-002.log changed" if run.record.stack == "aiacc" and run.record.run == 2 else ""

    (row,) = compare("aiacc", a, "baseline", b, check_log=check)
    assert not row.comparable
    assert row.reason == "imagenet-tensorflow: run-002.log changed"


def test_unknown_metric_or_experiment_is_an_error_with_did_you_mean() -> None:
    a = {"imagenet-tensorflow": images("aiacc", [1344.0])}
    b = {"imagenet-tensorflow": images("baseline", [1200.0])}
    with pytest.raises(
        ResultsError,
        match=r"--metric images_per_secc: not recorded .*"
        r'\(did you mean "images_per_sec"\?\); recorded: images_per_sec',
    ):
        compare("aiacc", a, "baseline", b, metrics=["images_per_secc"])
    with pytest.raises(ResultsError, match=r"--experiment imagenet-tf: not recorded"):
        compare("aiacc", a, "baseline", b, experiments=["imagenet-tf"])


def test_experiment_filter_and_a_matrix_points_main_metric_only() -> None:
    def keras(stack: str) -> dict[str, list[StoredRun]]:
        point = record(
            stack,
            "keras-lstm-1x1",
            1,
            {"train_time": (150.0, "s", False), "epoch_time": (15.0, "s", False)},
        )
        document = point.model_dump(by_alias=True)
        document["matrix"] = {"name": "keras-lstm", "point": {"nodes": 1, "gpus": 1}}
        return {
            "keras-lstm-1x1": stored(RunRecord.model_validate(document)),
            **{"imagenet-tensorflow": images(stack, [1344.0])},
        }

    rows = compare("aiacc", keras("aiacc"), "baseline", keras("baseline"))
    assert [(r.experiment, r.metric) for r in rows] == [
        ("imagenet-tensorflow", "images_per_sec"),
        ("keras-lstm-1x1", "train_time"),  # epoch_time is not a row of its own...
    ]
    asked = compare(
        "aiacc",
        keras("aiacc"),
        "baseline",
        keras("baseline"),
        metrics=["epoch_time"],
        experiments=["keras-lstm-1x1"],
    )
    assert [(r.experiment, r.metric) for r in asked] == [("keras-lstm-1x1", "epoch_time")]


def test_unequal_health_makes_every_row_not_comparable() -> None:
    from tests.health.factories import BUSBW, NODES, facts
    from trainstack.health.verdict import compare_health

    health = compare_health(facts("aiacc"), facts("baseline", busbw={NODES[1]: BUSBW * 0.7}))
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0, 1340.0])},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0, 1204.0])},
        health=health,
    )
    assert not row.comparable
    assert row.reason.startswith(
        f"imagenet-tensorflow: health: not comparable: baseline node {NODES[1]}: busbw"
    )
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0, 1340.0])},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0, 1204.0])},
        health=compare_health(facts("aiacc"), facts("baseline")),
    )
    assert row.comparable


def test_runs_outside_the_predicted_range_are_suspect_and_left_out() -> None:
    from trainstack.health.expected import Expected

    ranges = {("aiacc", "imagenet-tensorflow", "images_per_sec"): Expected(1300, 1400, "b")}
    (row,) = compare(
        "aiacc",
        {"imagenet-tensorflow": images("aiacc", [1344.0, 1340.0, 900.0])},
        "baseline",
        {"imagenet-tensorflow": images("baseline", [1200.0, 1204.0])},
        expected=ranges,
    )
    assert row.a.suspect == ((3, 900.0),)
    assert row.a.values == (1344.0, 1340.0)
    assert row.a.runs == (1, 2)
    assert row.comparable
