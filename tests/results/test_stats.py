"""One side's mean, sample standard deviation and Student's t interval, against hand
computation and SciPy's own t distribution."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from trainstack.results.stats import summarize, t_quantile


def test_three_runs_by_hand() -> None:
    summary = summarize([1340.0, 1344.0, 1348.0])
    assert summary.runs == 3
    assert summary.mean == 1344.0
    assert summary.stdev == 4.0  # sqrt((16 + 0 + 16) / 2)
    assert summary.interval is not None
    low, high = summary.interval
    # t(0.975, 2) = 4.303 (printed tables); 4.303 * 4 / sqrt(3) = 9.937
    assert low == pytest.approx(1344 - 9.937, abs=2e-3)
    assert high == pytest.approx(1344 + 9.937, abs=2e-3)


def test_two_runs_have_a_wide_interval_one_run_none() -> None:
    one = summarize([1200.0])
    assert (one.stdev, one.interval) == (None, None)
    two = summarize([1196.0, 1204.0])
    assert two.stdev == pytest.approx(5.656854, abs=1e-6)  # sqrt(32)
    assert two.interval is not None
    # t(0.975, 1) = 12.706; 12.706 * sqrt(32) / sqrt(2) = 50.82
    assert two.interval[0] == pytest.approx(1200 - 50.82, abs=0.01)


def test_ten_runs_against_scipy_stats() -> None:
    values = [1340.0, 1352.5, 1338.1, 1344.0, 1349.9, 1341.2, 1346.6, 1335.0, 1351.3, 1343.3]
    summary = summarize(values)
    expected = stats.t.interval(
        0.95, len(values) - 1, loc=stats.tmean(values), scale=stats.sem(values)
    )
    assert summary.interval == pytest.approx(expected, rel=1e-12)
    assert t_quantile(9) == pytest.approx(2.262, abs=1e-3)  # printed tables


def test_identical_values_have_a_zero_width_interval() -> None:
    summary = summarize([1344.0, 1344.0, 1344.0])
    assert (summary.stdev, summary.interval) == (0.0, (1344.0, 1344.0))


def test_very_large_values_never_overflow() -> None:
    summary = summarize([1.7e308, 1.6e308, 1.5e308])
    assert summary.mean == pytest.approx(1.6e308)
    assert summary.stdev is not None and math.isfinite(summary.stdev)
    # The upper bound is past the largest float: no interval rather than an infinite one.
    assert summary.interval is None


def test_no_degrees_of_freedom() -> None:
    with pytest.raises(ValueError, match="at least one degree of freedom"):
        t_quantile(0)
