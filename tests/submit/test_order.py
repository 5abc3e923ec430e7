"""Submission order across stacks, and the time to live."""

from __future__ import annotations

from typing import Any

import pytest

from trainstack.core.errors import TrainstackError
from trainstack.submit.order import parse_duration, submission_order


class _Campaign:
    def __init__(self, stack: str, runs: list[str]) -> None:
        self.stack = stack
        self.runs = runs


def _order(interleave: bool, *campaigns: Any) -> list[str]:
    return [f"{c.stack}:{r}" for c, r in submission_order(campaigns, interleave)]


def test_stacks_one_after_the_other_or_alternating() -> None:
    a, b = _Campaign("aiacc", ["1", "2", "3"]), _Campaign("baseline", ["1", "2"])
    assert _order(False, a, b) == ["aiacc:1", "aiacc:2", "aiacc:3", "baseline:1", "baseline:2"]
    assert _order(True, a, b) == ["aiacc:1", "baseline:1", "aiacc:2", "baseline:2", "aiacc:3"]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("7d", 604_800), ("12h", 43_200), ("30m", 1800), ("90s", 90), ("90", 90), ("0", 0)],
)
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "7 d", "-1", "1w", "1.5h", "99999999999", "7d\n"])
def test_a_bad_duration_is_one_error(text: str) -> None:
    with pytest.raises(TrainstackError, match="allowed: a duration such as 7d"):
        parse_duration(text)
