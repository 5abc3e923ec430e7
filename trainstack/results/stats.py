"""Mean, sample standard deviation and a 95% confidence interval of one side's runs.

The interval is Student's t: mean ± t(0.975, n-1) · s / √n, from 2 runs on (with 2 runs
t is 12.7: a wide interval, shown as it is). The quantile comes from SciPy
(``scipy.special.stdtrit``, the function ``scipy.stats.t.ppf`` itself calls: the same
numbers without loading ``scipy.stats``, which alone takes about 1 s to import). Values
are scaled by the largest before summing, so that very large values (``1e308``) never
overflow: the statistics of any finite values are finite or shown as ``-``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
MIN_RUNS_FOR_INTERVAL = 2
_SCALE_FROM = 1e150
"""Beyond this, squares overflow: values are divided by the largest first."""


def t_quantile(degrees_of_freedom: float, probability: float = 0.5 + CONFIDENCE / 2) -> float:
    """The ``probability`` quantile of Student's t (default 0.975: two-sided 95%)."""
    if not degrees_of_freedom > 0:
        raise ValueError("at least one degree of freedom")
    from scipy.special import stdtrit

    return float(stdtrit(degrees_of_freedom, probability))


def sample_variance(values: Sequence[float]) -> float:
    """The sample variance (n - 1) of at least 2 finite values: exactly 0 when they are
    all equal, otherwise two passes summed with ``math.fsum`` (correctly rounded sums).

    Not ``statistics.variance``: it sums in exact fractions, a sixth of a second per
    compare of 200 experiments, for digits no interval shows (``fmean`` is ``fsum``'s).
    """
    first = values[0]
    if all(value == first for value in values):
        return 0.0
    mean = statistics.fmean(values)
    return math.fsum((value - mean) ** 2 for value in values) / (len(values) - 1)


@dataclass(frozen=True)
class Summary:
    """A metric over the runs of one side."""

    runs: int
    mean: float
    stdev: float | None
    """Sample standard deviation (n - 1); ``None`` for a single run."""
    interval: tuple[float, float] | None
    """95% confidence interval of the mean, from :data:`MIN_RUNS_FOR_INTERVAL` runs on."""


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def summarize(values: Sequence[float]) -> Summary:
    """Summary of at least one finite value."""
    largest = max(abs(value) for value in values)
    scale = largest if largest > _SCALE_FROM else 1.0
    scaled = [value / scale for value in values]
    mean = statistics.fmean(scaled) * scale
    if len(values) < MIN_RUNS_FOR_INTERVAL:
        return Summary(len(values), mean, None, None)
    stdev = math.sqrt(sample_variance(scaled)) * scale
    half = t_quantile(len(values) - 1) * stdev / math.sqrt(len(values))
    low, high = mean - half, mean + half
    interval = (low, high) if _finite(low) is not None and _finite(high) is not None else None
    return Summary(len(values), mean, stdev, interval)
