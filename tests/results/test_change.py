"""The change of A against B: Welch's interval and test on log values, and the runs needed;
against hand computation and an independent computation with ``scipy.stats``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from trainstack.results.change import change_of, power, runs_needed

AIACC = [1338.0, 1344.0, 1350.0]
BASELINE = [1196.0, 1200.0, 1204.0]


def _independent(
    a: list[float], b: list[float], higher_is_better: bool = True
) -> tuple[float, tuple[float, float], float]:
    """Change, 95% interval and p from scipy.stats' Welch test on the logs."""
    la, lb = np.log(a), np.log(b)
    if not higher_is_better:
        la, lb = lb, la
    result = stats.ttest_ind(la, lb, equal_var=False)
    low, high = result.confidence_interval(0.95)
    change = math.exp(float(np.mean(la) - np.mean(lb))) - 1
    return change, (math.expm1(low), math.expm1(high)), float(result.pvalue)


def test_workload_1_by_hand() -> None:
    change = change_of(AIACC, BASELINE, higher_is_better=True)
    # Geometric means 1343.991 and 1199.996: +12.0%.
    assert change.estimate == pytest.approx(0.12, abs=1e-4)
    # On the logs: sd 0.004464 and 0.003333, se 0.003217, Welch df 3.70, t(0.975) = 2.83:
    # exp(0.11333 ± 0.0091) - 1 = +11.0% .. +13.0%.
    assert change.interval == pytest.approx((0.110, 0.130), abs=1e-3)
    assert change.p_value is not None and change.p_value < 1e-4
    assert change.test == "Welch's t-test on log values"
    assert change.runs == (3, 3) and change.too_few == ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(AIACC, BASELINE, id="n=3-unequal-variances"),
        pytest.param([1196.0, 1204.0], [1190.0, 1210.0], id="n=2"),
        pytest.param([100.0, 104.0, 96.0, 100.0], [100.0, 104.0, 96.0, 100.0], id="equal"),
        pytest.param(
            [1340.0, 1352.5, 1338.1, 1344.0, 1349.9, 1341.2, 1346.6, 1335.0, 1351.3, 1343.3],
            [1201.0, 1195.2, 1210.4, 1188.8, 1203.3, 1199.0, 1205.5, 1192.1, 1200.7, 1197.6],
            id="n=10",
        ),
        pytest.param([150.0, 151.0, 149.0], [150.0, 180.0, 120.0, 165.0], id="very-unequal"),
    ],
)
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_against_scipy_stats(a: list[float], b: list[float], higher_is_better: bool) -> None:
    change = change_of(a, b, higher_is_better)
    expected, interval, p_value = _independent(a, b, higher_is_better)
    assert change.estimate == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert change.interval == pytest.approx(interval, rel=1e-9, abs=1e-12)
    assert change.p_value == pytest.approx(p_value, rel=1e-9)
    # The interval and the test agree: p < 0.05 exactly when 0 is outside the interval.
    assert change.interval is not None
    assert (change.p_value < 0.05) == (not change.interval[0] <= 0 <= change.interval[1])


def test_lower_is_better_mirrors_higher_is_better() -> None:
    # Times: A takes 82 s, B 89 s: A is better by 89/82 - 1 = +8.5%.
    faster = change_of([81.0, 82.0, 83.0], [88.0, 89.0, 90.0], higher_is_better=False)
    assert faster.estimate > 0
    assert faster.estimate == pytest.approx(89 / 82 - 1, abs=2e-4)
    slower = change_of([88.0, 89.0, 90.0], [81.0, 82.0, 83.0], higher_is_better=False)
    assert slower.estimate < 0


@pytest.mark.parametrize(
    ("a", "b", "n"), [([1344.0], [1200.0], 1), ([1344.0, 1350.0], [1200.0], 1)]
)
def test_too_few_runs_no_interval_no_test(a: list[float], b: list[float], n: int) -> None:
    change = change_of(a, b, higher_is_better=True)
    assert change.interval is None and change.p_value is None
    assert change.too_few == f"too few runs (n={n})"
    assert change.estimate == pytest.approx(1344 / 1200 - 1, abs=3e-3)


def test_identical_values_zero_spread() -> None:
    change = change_of([1344.0] * 3, [1200.0] * 3, higher_is_better=True)
    assert change.interval == (pytest.approx(0.12), pytest.approx(0.12))
    assert change.p_value is None and change.test == "none (no spread on either side)"
    assert change.runs_needed == 2 and change.resolved


def test_runs_needed_by_the_normal_approximation_and_scipy_power() -> None:
    # 2% spread on each side, resolve ±2%: n ≈ 2 (z.975 + z.80)² (s/δ)² = 15.9 by the
    # normal approximation; the t-test needs a little more.
    spread = 0.02
    needed = runs_needed([spread**2, spread**2], 0.02)
    assert needed is not None and 16 <= needed <= 18

    def scipy_power(n: int) -> float:
        df, shift = 2 * n - 2, math.log1p(0.02) / (spread * math.sqrt(2 / n))
        critical = stats.t.ppf(0.975, df)
        return float(stats.nct.sf(critical, df, shift) + stats.nct.cdf(-critical, df, shift))

    assert scipy_power(needed) >= 0.8 > scipy_power(needed - 1)
    assert power(needed, spread, 0.02) == pytest.approx(scipy_power(needed), rel=1e-9)


def test_not_resolved_with_the_runs_it_needs() -> None:
    change = change_of([100.0, 103.0, 97.0], [100.0, 102.0, 98.0], higher_is_better=True)
    assert change.runs_needed is not None and change.runs_needed > 3
    assert not change.resolved
    # A wider change to resolve needs fewer runs.
    wide = change_of([100.0, 103.0, 97.0], [100.0, 102.0, 98.0], True, resolve=0.10)
    assert wide.runs_needed is not None and wide.runs_needed < change.runs_needed


def test_very_large_values_never_crash() -> None:
    change = change_of([1.7e308, 1.6e308], [1e-300, 2e-300], higher_is_better=True)
    assert math.isfinite(change.estimate) and change.interval is not None
    assert all(math.isfinite(bound) for bound in change.interval)
