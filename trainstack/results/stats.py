"""Mean, sample standard deviation and a 95% confidence interval of a few runs.

The interval is Student's t: mean ± t(0.975, n-1) · s / √n, shown from
:data:`MIN_RUNS_FOR_INTERVAL` runs on (with 2 runs t is 12.7: an interval that wide says
nothing). Quantiles from the standard t table (e.g. NIST/SEMATECH e-Handbook, table
1.3.6.7.2); between listed degrees of freedom, linear in 1/df, which is within 0.001.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

MIN_RUNS_FOR_INTERVAL = 3

_T_975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    21: 2.080,
    22: 2.074,
    23: 2.069,
    24: 2.064,
    25: 2.060,
    26: 2.056,
    27: 2.052,
    28: 2.048,
    29: 2.045,
    30: 2.042,
    40: 2.021,
    60: 2.000,
    120: 1.980,
}
_T_975_LIMIT = 1.960


def t_975(degrees_of_freedom: int) -> float:
    """The 0.975 quantile of Student's t (two-sided 95%)."""
    if degrees_of_freedom < 1:
        raise ValueError("at least one degree of freedom")
    if degrees_of_freedom in _T_975:
        return _T_975[degrees_of_freedom]
    listed = sorted(_T_975)
    upper = next((df for df in listed if df > degrees_of_freedom), None)
    lower = max(df for df in listed if df < degrees_of_freedom)
    low_t = _T_975[lower]
    high_t = _T_975_LIMIT if upper is None else _T_975[upper]
    high_inverse = 0.0 if upper is None else 1 / upper
    share = (1 / lower - 1 / degrees_of_freedom) / (1 / lower - high_inverse)
    return low_t + (high_t - low_t) * share


@dataclass(frozen=True)
class Summary:
    """A metric over the runs of one side."""

    runs: int
    mean: float
    stdev: float | None
    """Sample standard deviation (n - 1); ``None`` for a single run."""
    interval: tuple[float, float] | None
    """95% confidence interval of the mean, from :data:`MIN_RUNS_FOR_INTERVAL` runs on."""


def summarize(values: Sequence[float]) -> Summary:
    """Summary of at least one value."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Summary(len(values), mean, None, None)
    stdev = statistics.stdev(values)
    interval = None
    if len(values) >= MIN_RUNS_FOR_INTERVAL:
        half = t_975(len(values) - 1) * stdev / math.sqrt(len(values))
        interval = (mean - half, mean + half)
    return Summary(len(values), mean, stdev, interval)
