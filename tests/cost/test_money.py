"""Amounts: exact products, one rounding (hundredths, half up), one way to write them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from trainstack.cost.money import (
    change_text,
    exact,
    figure,
    gpu_hours_text,
    money_text,
    rate_text,
    rounded,
    total,
)


@pytest.mark.parametrize(
    ("amount", "shown"),
    # Half up, as bills round: 0.025 is 0.03 (half-even, Python's default, would say 0.02).
    [("0.005", "0.01"), ("0.025", "0.03"), ("0.0249", "0.02"), ("-0.025", "-0.03"), ("7", "7.00")],
)
def test_a_figure_is_rounded_once_half_up(amount: str, shown: str) -> None:
    assert figure(Decimal(amount)) == shown


def test_products_are_exact_before_the_rounding() -> None:
    # One GPU of a 3-GPU node at 10.00/h for 1,000 s: 10 x 1000 / (3 x 3600) = 0.9259...
    assert rounded(exact(Decimal(10), 1000, per=3 * 3600)) == Decimal("0.93")
    assert rounded(exact(Decimal("0.000001"), 10**12)) == Decimal("1000000.00")
    # 10^12 per node-hour, 16,000 GPUs, 30 days, 100 runs: still exact (60 digits).
    huge = exact(Decimal("999999999999.999999"), 16_000, 2_592_000, 100)
    assert huge == Decimal("999999999999.999999") * Decimal(16_000 * 2_592_000 * 100)


def test_a_sum_is_of_the_rounded_figures() -> None:
    # What a reader adds up is what is printed: 0.005 + 0.005 shows as 0.01 + 0.01 = 0.02.
    assert total([Decimal("0.005"), Decimal("0.005")]) == Decimal("0.02")


@pytest.mark.parametrize(
    ("currency", "shown"),
    [("CNY", "¥1,234.50"), ("USD", "$1,234.50"), ("JPY", "1,234.50 JPY"), (None, "unknown")],
)
def test_money_is_written_with_its_currency(currency: str | None, shown: str) -> None:
    assert money_text(Decimal("1234.5"), currency) == shown


def test_unknown_is_never_zero() -> None:
    assert money_text(None, "CNY") == "unknown"
    assert change_text(None, "CNY") == "unknown"
    assert gpu_hours_text(None) == "unknown"


@pytest.mark.parametrize(
    ("amount", "shown"), [("8", "+¥8.00"), ("-8", "-¥8.00"), ("0.001", "±¥0.00")]
)
def test_a_change_is_signed(amount: str, shown: str) -> None:
    assert change_text(Decimal(amount), "CNY") == shown


@pytest.mark.parametrize(
    ("amount", "shown"),
    [("30.125", "¥30.125"), ("1.5", "¥1.50"), ("1234", "¥1,234.00"), ("3.3333335", "¥3.333334")],
)
def test_a_rate_is_written_as_it_is_to_six_decimals(amount: str, shown: str) -> None:
    assert rate_text(Decimal(amount), "CNY") == shown


def test_gpu_hours_have_two_decimals() -> None:
    assert gpu_hours_text(Decimal("51.2")) == "51.20 GPU-h"
