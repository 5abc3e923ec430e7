"""Mean, sample standard deviation and Student's t interval, against hand computation."""

from __future__ import annotations

import pytest

from trainstack.results.stats import summarize, t_975


def test_three_runs() -> None:
    summary = summarize([1340.0, 1344.0, 1348.0])
    assert summary.runs == 3
    assert summary.mean == 1344.0
    assert summary.stdev == 4.0  # sqrt((16 + 0 + 16) / 2)
    assert summary.interval is not None
    low, high = summary.interval
    # t(0.975, 2) = 4.303; 4.303 * 4 / sqrt(3) = 9.9374
    assert low == pytest.approx(1334.0626, abs=1e-4)
    assert high == pytest.approx(1353.9374, abs=1e-4)


def test_one_and_two_runs_have_no_interval() -> None:
    assert summarize([1200.0]).stdev is None
    two = summarize([1196.0, 1204.0])
    assert two.stdev == pytest.approx(5.656854, abs=1e-6)  # sqrt(32)
    assert two.interval is None


def test_t_quantiles_listed_and_between() -> None:
    assert t_975(1) == 12.706
    assert t_975(9) == 2.262
    assert t_975(35) == pytest.approx(2.030, abs=1e-3)  # tables: 2.0301
    assert t_975(200) == pytest.approx(1.972, abs=1e-3)  # tables: 1.9719
    with pytest.raises(ValueError, match="at least one degree of freedom"):
        t_975(0)
