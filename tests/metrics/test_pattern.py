"""Metric patterns: one group, compiled, and without exponential backtracking."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from trainstack.metrics import MetricSpec
from trainstack.metrics.pattern import pattern_problem


@pytest.mark.parametrize(
    "pattern",
    [r"total images/sec: ([0-9.]+)", r"acc(?:uracy)?\s*=\s*(\d+\.\d+)", r"(?:a|b)+=(\d+)"],
)
def test_safe_patterns(pattern: str) -> None:
    assert pattern_problem(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        (r"(\d+)+", "a repetition inside a repetition"),
        (r"((?:\d+,)*)", "a repetition inside a repetition"),
        (r"(?:a|ab)*=(\d)", "an alternation inside a repetition"),
        (r"(a)=\1", "a back-reference"),
        (r"([0-9.]+", "a Python regular expression (missing ), unterminated subpattern"),
        (r"images/sec: [0-9.]+", "exactly one capturing group, the number (found 0"),
        (r"(\w+)=([0-9.]+)", "exactly one capturing group, the number (found 2"),
        ("(x)" + "y" * 300, "at most 300 characters"),
    ],
)
def test_refused_patterns(pattern: str, problem: str) -> None:
    found = pattern_problem(pattern)
    assert found is not None and problem in found


def test_spec_names_the_pattern_key() -> None:
    with pytest.raises(ValidationError, match=r"pattern: found \(\\d\+\)\+; allowed: a pattern"):
        MetricSpec.model_validate({"name": "x", "pattern": r"(\d+)+"})
