"""Durations as experiment files write them: whole hours, minutes, seconds, in that order."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from trainstack.core.durations import Duration, seconds_of, shown_duration
from trainstack.core.limits import MAX_DURATION_SECONDS


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90m", 5400), ("2h30m", 9000), ("45s", 45), ("1h0m5s", 3605), ("720h", 2_592_000)],
)
def test_a_duration_is_read_in_seconds(text: str, seconds: int) -> None:
    assert seconds_of(text) == seconds


@pytest.mark.parametrize(
    "text",
    ["", "0s", "0h0m", "90", "1.5h", "30m1h", "1h 30m", "-1h", "721h", "1d", "1H", "90m\n"],
)
def test_anything_else_is_no_duration(text: str) -> None:
    assert seconds_of(text) is None


def test_the_bound_is_thirty_days() -> None:
    assert seconds_of(f"{MAX_DURATION_SECONDS}s") == MAX_DURATION_SECONDS
    assert seconds_of(f"{MAX_DURATION_SECONDS + 1}s") is None


@pytest.mark.parametrize(
    ("seconds", "text"), [(5400, "1h30m"), (45, "45s"), (3605, "1h0m5s"), (7200, "2h"), (0, "0s")]
)
def test_seconds_are_shown_as_they_are_read(seconds: int, text: str) -> None:
    assert shown_duration(seconds) == text
    assert seconds == 0 or seconds_of(text) == seconds


def test_a_field_refuses_a_bare_number_naming_the_form() -> None:
    with pytest.raises(ValidationError, match=r"e\.g\. `90m`, `2h30m`"):
        TypeAdapter(Duration).validate_python("90")
