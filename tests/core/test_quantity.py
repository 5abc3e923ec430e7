"""Quantities as exact numbers, whatever their size; the bounds Kubernetes keeps."""

from __future__ import annotations

from decimal import Decimal

import pytest

from trainstack.core.quantity import (
    exact_quantity,
    format_quantity,
    parse_quantity,
    quantity_problem,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500m", Decimal("0.5")),
        ("32Gi", Decimal(32 * 2**30)),
        ("1e3", Decimal(1000)),
        ("1.5E2", Decimal(150)),
        ("7Ei", Decimal(7 * 2**60)),
        ("1n", Decimal("1e-9")),
    ],
)
def test_values(text: str, value: Decimal) -> None:
    assert parse_quantity(text) == value


def test_huge_exponents_are_compared_not_computed() -> None:
    assert parse_quantity("1e999999999") > 2**63
    assert parse_quantity("1e-999999999") == 0


@pytest.mark.parametrize("text", ["32Gi\n", "", "-1", "1Gb", "9" * 65])
def test_not_quantities(text: str) -> None:
    with pytest.raises(ValueError, match="is not a Kubernetes quantity"):
        parse_quantity(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("9223372036854775807", None),
        ("9223372036854775808", "at most 9223372036854775807 (2^63-1: Kubernetes caps larger"),
        ("8Ei", "at most 9223372036854775807 (2^63-1: Kubernetes caps larger"),
        ("9" * 65, "at most 64 characters"),
        ("x", "a quantity such as 8, 500m or 32Gi"),
    ],
)
def test_problems(text: str, problem: str | None) -> None:
    found = quantity_problem(text)
    assert found == problem if problem is None else (found or "").startswith(problem)


def test_large_sums_still_format() -> None:
    total = parse_quantity("9223372036854775807") * 512
    assert format_quantity(total) == "4096Ei"
    assert exact_quantity(parse_quantity("920Gi"), binary=True) == "920Gi"
