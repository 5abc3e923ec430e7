"""The change of A against B with its uncertainty, and how many runs it takes to resolve one.

Method (docs/results.md): the values of each side are taken on the log scale, so that
the change is a ratio and the spread is relative. With ``la``, ``lb`` the logs of A's
and B's runs:

- the change is ``exp(mean(la) - mean(lb)) - 1``: the ratio of the geometric means
  (``exp(mean(lb) - mean(la)) - 1`` when lower is better), positive when A is better;
- its 95% interval is Welch's: ``d ± t(0.975, ν) · se`` on the log scale, with
  ``se² = var(la)/na + var(lb)/nb`` and ν by Welch–Satterthwaite, then exponentiated;
- the test is Welch's two-sided t-test of ``d = 0`` on the logs; p < 0.05 exactly when
  the interval leaves out 0 (the same t, the same ν);
- the runs needed per side to resolve a change of ``±resolve`` (default 2%) at 95%
  confidence and 80% power: the smallest n (equal on both sides) whose two-sample t-test
  has that power at the pooled spread of the two sides, from the noncentral t
  distribution.

Assumptions: runs are independent, the log values of each side roughly normal (runs of
a benchmark: a few percent of spread); the power calculation assumes the spread seen is
the true one. Fewer than 2 runs on a side: no interval, no test (``too few runs``).
Distribution functions are SciPy's (``scipy.special.stdtr``, ``stdtrit``, ``nctdtr``:
what ``scipy.stats.t`` and ``scipy.stats.nct`` call).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from trainstack.results.stats import (
    CONFIDENCE,
    MIN_RUNS_FOR_INTERVAL,
    sample_variance,
    t_quantile,
)

DEFAULT_RESOLVE = 0.02
"""The change runs should resolve, unless ``--resolve`` says otherwise: ±2%."""
POWER = 0.80
MAX_RUNS_NEEDED = 10_000
"""Beyond this many runs per side, "more than 10000"."""
_LOG_LIMIT = 700.0
"""exp() of more overflows: a log difference is clipped here (a change of e^700)."""
WELCH = "Welch's t-test on log values"


@dataclass(frozen=True)
class Change:
    """How much better A is than B, with its 95% interval, test and the runs it takes."""

    estimate: float
    """exp(mean log A - mean log B) - 1 (inverted when lower is better): > 0, A is better."""
    interval: tuple[float, float] | None
    """95% confidence interval of the change; ``None`` with fewer than 2 runs on a side."""
    p_value: float | None
    """Two-sided p-value of Welch's t-test; ``None`` without a test."""
    test: str
    """The test made, or why none was."""
    runs_needed: int | None
    """Runs per side to resolve ±resolve; ``None`` when no side has a spread yet."""
    resolve: float
    """The change (fraction) that ``runs_needed`` resolves."""
    runs: tuple[int, int]
    """n on A, n on B."""

    @property
    def too_few(self) -> str:
        """``too few runs (n=1)`` when a side has fewer than 2 runs, else empty."""
        fewest = min(self.runs)
        return f"too few runs (n={fewest})" if fewest < MIN_RUNS_FOR_INTERVAL else ""

    @property
    def resolved(self) -> bool:
        """Each side has at least the runs needed."""
        return self.runs_needed is not None and min(self.runs) >= self.runs_needed


def _expm1(log_difference: float) -> float:
    return math.expm1(max(-_LOG_LIMIT, min(_LOG_LIMIT, log_difference)))


def _variance(values: Sequence[float]) -> float | None:
    return sample_variance(values) if len(values) >= 2 else None


def change_of(
    a: Sequence[float],
    b: Sequence[float],
    higher_is_better: bool,
    resolve: float = DEFAULT_RESOLVE,
) -> Change:
    """The change of A against B from the values (finite, positive) of their runs."""
    la, lb = [math.log(v) for v in a], [math.log(v) for v in b]
    sign = 1.0 if higher_is_better else -1.0
    difference = sign * (statistics.fmean(la) - statistics.fmean(lb))
    va, vb = _variance(la), _variance(lb)
    needed = runs_needed([v for v in (va, vb) if v is not None], resolve)
    estimate = _expm1(difference)

    def made(interval: tuple[float, float] | None, p_value: float | None, test: str) -> Change:
        return Change(estimate, interval, p_value, test, needed, resolve, (len(a), len(b)))

    if va is None or vb is None:
        return made(None, None, "none (fewer than 2 runs on a side)")
    share_a, share_b = va / len(a), vb / len(b)
    error = math.sqrt(share_a + share_b)
    if error == 0:
        return made((estimate, estimate), None, "none (no spread on either side)")
    freedom = (share_a + share_b) ** 2 / (share_a**2 / (len(a) - 1) + share_b**2 / (len(b) - 1))
    half = t_quantile(freedom) * error
    from scipy.special import stdtr

    p_value = min(1.0, float(2 * stdtr(freedom, -abs(difference) / error)))
    return made((_expm1(difference - half), _expm1(difference + half)), p_value, WELCH)


def power(runs: int, spread: float, resolve: float) -> float:
    """Power of the two-sided 95% two-sample t-test, ``runs`` per side, to detect a change
    of ``resolve`` when the log values spread by ``spread`` (standard deviation)."""
    from scipy.special import nctdtr

    freedom = 2 * runs - 2
    shift = math.log1p(resolve) / (spread * math.sqrt(2 / runs))
    critical = t_quantile(freedom)
    upper = 1 - float(nctdtr(freedom, shift, critical))
    return upper + float(nctdtr(freedom, shift, -critical))


def runs_needed(variances: Sequence[float], resolve: float) -> int | None:
    """Runs per side for :data:`POWER` at 95% confidence (``None``: no spread known yet;
    ``MAX_RUNS_NEEDED + 1``: more than that)."""
    if not variances:
        return None
    spread = math.sqrt(statistics.fmean(variances))
    if spread == 0:
        return MIN_RUNS_FOR_INTERVAL
    # The normal approximation (z quantiles) is a lower bound for the t-test's n: start there.
    from scipy.special import ndtri  # the normal quantile, what scipy.stats.norm.ppf calls

    z = float(ndtri(0.5 + CONFIDENCE / 2) + ndtri(POWER))
    guess = 2 * (z * spread / math.log1p(resolve)) ** 2
    runs = max(MIN_RUNS_FOR_INTERVAL, min(MAX_RUNS_NEEDED, math.floor(guess)))
    while runs <= MAX_RUNS_NEEDED:
        if power(runs, spread, resolve) >= POWER:
            return runs
        runs += 1
    return MAX_RUNS_NEEDED + 1


__all__ = ["CONFIDENCE", "DEFAULT_RESOLVE", "Change", "change_of", "power", "runs_needed"]
