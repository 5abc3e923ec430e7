"""``results compare --rule mlperf``: each side scored as MLPerf Training scores a benchmark.

The rule, from mlcommons/training_policies ``training_rules.adoc`` at d73e20f
(``Benchmark Results``): "Each benchmark result is computed by dropping the fastest and
slowest runs, then taking the mean of the remaining times. For this purpose, a single
non-converging run may be treated as the slowest run and dropped. A benchmark result is
invalid if there is more than one non-converging run." Each benchmark has a minimum
number of runs (the tables there; image classification, ResNet-50 as in workload 1: 5,
under "Deprecated benchmarks results"); fewer is "too few" here.

Applied to any metric: the fastest run is the best value (the highest for a metric where
higher is better, the lowest for a time), a failed run (its job failed) counts as the
slowest, whatever its log said; every run of the side's current experiment counts,
flagged ones included (the rule has no other exclusion). The change is the ratio of the
two scores, minus 1, inverted for lower-is-better metrics (positive: A is better). The
rule makes no test: no interval, no p-value.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

RULES = "mlcommons/training_policies@d73e20f training_rules.adoc, Benchmark Results"
DEFAULT_MIN_RUNS = 5
"""MLPerf's minimum for image classification (ResNet-50), workload 1's benchmark."""
MIN_RUNS_FLOOR = 3
"""Dropping the fastest and the slowest leaves a run to average only from 3 runs."""


def rule_text(min_runs: int) -> str:
    """The rule as printed with every answer."""
    return (
        f"MLPerf Training scoring ({RULES}): per side, every run counts; drop the fastest "
        "and the slowest run, the score is the mean of the rest; a failed run counts as the "
        f"slowest; more than one failed run: invalid; fewer than {min_runs} runs: too few"
    )


@dataclass(frozen=True)
class Score:
    """One side's MLPerf score."""

    runs: int
    failed: int
    status: Literal["scored", "too few", "invalid"]
    score: float | None
    kept: tuple[int, ...]
    """The run numbers whose values the mean takes."""
    dropped: tuple[int, ...]
    """The fastest and the slowest run (a failed run as the slowest)."""

    def words(self, min_runs: int) -> str:
        if self.status == "too few":
            return f"too few runs (n={self.runs} < {min_runs})"
        if self.status == "invalid":
            return f"invalid ({self.failed} failed runs; at most 1)"
        return f"score of runs {', '.join(map(str, self.kept))}"


def score(runs: Sequence[tuple[int, float | None]], higher_is_better: bool, min_runs: int) -> Score:
    """MLPerf's score of ``runs`` ((run number, value), ``None`` for a failed run)."""
    failed = [number for number, value in runs if value is None]
    if len(runs) < min_runs:
        return Score(len(runs), len(failed), "too few", None, (), ())
    if len(failed) > 1:
        return Score(len(runs), len(failed), "invalid", None, (), ())
    sign = 1.0 if higher_is_better else -1.0
    # Best first; a failed run last (the slowest); ties by run number, so the same runs
    # always give the same drops.
    ordered = sorted(
        runs,
        key=lambda item: (item[1] is None, -sign * (item[1] or 0.0), item[0]),
    )
    kept = ordered[1:-1]
    values = [value for _, value in kept if value is not None]
    return Score(
        len(runs),
        len(failed),
        "scored",
        statistics.fmean(values),
        tuple(sorted(number for number, _ in kept)),
        (ordered[0][0], ordered[-1][0]),
    )


@dataclass(frozen=True)
class MlperfComparison:
    """Both sides scored, and the change of A against B."""

    a: Score
    b: Score
    change: float | None
    min_runs: int

    def verdict(self, a_stack: str, b_stack: str) -> str:
        for stack, side in ((a_stack, self.a), (b_stack, self.b)):
            if side.status != "scored":
                return f"{side.words(self.min_runs)} on {stack}"
        if self.change is None or self.change == 0:
            return "equal scores (MLPerf rule)"
        better = a_stack if self.change > 0 else b_stack
        return f"{better} better (MLPerf rule; no test)"


def compare_scores(
    a: Sequence[tuple[int, float | None]],
    b: Sequence[tuple[int, float | None]],
    higher_is_better: bool,
    min_runs: int = DEFAULT_MIN_RUNS,
) -> MlperfComparison:
    """Score both sides; the change when both are scored."""
    first, second = score(a, higher_is_better, min_runs), score(b, higher_is_better, min_runs)
    change = None
    if first.score is not None and second.score is not None and first.score > 0:
        ratio = first.score / second.score if higher_is_better else second.score / first.score
        change = ratio - 1
    return MlperfComparison(first, second, change, min_runs)
