"""MLPerf Training's scoring (training_rules.adoc at d73e20f, "Benchmark Results"): drop the
fastest and the slowest run, mean of the rest; a failed run is the slowest; more than one
failed run is invalid; fewer than the minimum is too few. Every number worked by hand."""

from __future__ import annotations

import pytest

from trainstack.results.mlperf import DEFAULT_MIN_RUNS, compare_scores, rule_text, score


def test_times_drop_the_fastest_and_the_slowest() -> None:
    # Times 10, 12, 11, 13, 20 (runs 1-5): drop run 1 (10, fastest) and run 5 (20,
    # slowest); (12 + 11 + 13) / 3 = 12.
    scored = score([(1, 10.0), (2, 12.0), (3, 11.0), (4, 13.0), (5, 20.0)], False, 5)
    assert (scored.status, scored.score) == ("scored", 12.0)
    assert (scored.kept, scored.dropped) == ((2, 3, 4), (1, 5))


def test_a_rate_is_fastest_when_highest() -> None:
    # images/sec 1338, 1344, 1350, 1200, 1347: fastest 1350 (run 3), slowest 1200 (run 4);
    # (1338 + 1344 + 1347) / 3 = 1343.
    runs = [(1, 1338.0), (2, 1344.0), (3, 1350.0), (4, 1200.0), (5, 1347.0)]
    scored = score(runs, True, 5)
    assert scored.score == 1343.0 and scored.dropped == (3, 4)


def test_one_failed_run_counts_as_the_slowest() -> None:
    # 10, 12, 11, 13 and a failed run: the failed one is dropped as the slowest, 10 as
    # the fastest; (12 + 11 + 13) / 3 = 12, whatever its log said.
    scored = score([(1, 10.0), (2, 12.0), (3, 11.0), (4, 13.0), (5, None)], False, 5)
    assert (scored.score, scored.failed, scored.dropped) == (12.0, 1, (1, 5))


def test_more_than_one_failed_run_is_invalid() -> None:
    scored = score([(1, 10.0), (2, None), (3, 11.0), (4, 13.0), (5, None)], False, 5)
    assert (scored.status, scored.score) == ("invalid", None)
    assert scored.words(5) == "invalid (2 failed runs; at most 1)"


def test_fewer_than_the_minimum_is_too_few() -> None:
    scored = score([(1, 10.0), (2, 12.0), (3, 11.0), (4, 13.0)], False, 5)
    assert scored.status == "too few" and scored.words(5) == "too few runs (n=4 < 5)"
    assert score([(1, 10.0), (2, 12.0), (3, 11.0)], False, 3).score == 11.0


def test_ties_drop_the_same_runs_every_time() -> None:
    scored = score([(3, 5.0), (1, 5.0), (2, 5.0)], True, 3)
    assert scored.dropped == (1, 3) and scored.kept == (2,)


@pytest.mark.parametrize(("higher", "change"), [(True, 1343 / 1200 - 1), (False, 1200 / 1343 - 1)])
def test_the_change_is_positive_when_a_scores_better(higher: bool, change: float) -> None:
    a = [(1, 1338.0), (2, 1344.0), (3, 1350.0), (4, 1200.0), (5, 1347.0)]
    b = [(1, 1190.0), (2, 1200.0), (3, 1210.0), (4, 1199.0), (5, 1201.0)]
    # B: drop 1210 and 1190 (either order by direction); (1200 + 1199 + 1201) / 3 = 1200.
    compared = compare_scores(a, b, higher)
    assert compared.b.score == 1200.0
    assert compared.change == pytest.approx(change, rel=1e-12)
    winner = "aiacc" if higher else "baseline"
    assert compared.verdict("aiacc", "baseline") == f"{winner} better (MLPerf rule; no test)"


def test_an_unscored_side_is_the_verdict() -> None:
    a = [(1, 1.0), (2, 2.0), (3, 3.0), (4, 4.0), (5, 5.0)]
    compared = compare_scores(a, a[:2], True, DEFAULT_MIN_RUNS)
    assert compared.change is None
    assert compared.verdict("aiacc", "baseline") == "too few runs (n=2 < 5) on baseline"


def test_the_rule_is_printed_with_its_source() -> None:
    assert rule_text(5) == (
        "MLPerf Training scoring (mlcommons/training_policies@d73e20f training_rules.adoc, "
        "Benchmark Results): per side, every run counts; drop the fastest and the slowest "
        "run, the score is the mean of the rest; a failed run counts as the slowest; more "
        "than one failed run: invalid; fewer than 5 runs: too few"
    )
