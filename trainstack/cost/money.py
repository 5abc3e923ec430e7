"""Amounts and GPU-hours: exact arithmetic, one rounding, one way to write them.

Every figure is computed with :class:`decimal.Decimal` from exact inputs (prices as
written, whole GPUs, seconds) in a 60-digit context, so that no product of bounded inputs
is ever rounded on the way (``core/limits.py``: prices and budgets are at most 10^12 with
6 decimals, GPUs and seconds bounded). Each amount shown or written is then rounded
once, at the end, to hundredths, half up (0.005 -> 0.01: how bills round), and written
with two decimals: the same inputs give the same text on every machine. A sum or a
difference of amounts is of the rounded amounts, so that what a reader adds up is what
is printed. Rates (a node's or a GPU's price per hour) are written as they are, to at
most six decimals (half up beyond), so that ``4 x ¥30.125 = ¥120.50`` reads true.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal, localcontext

CONTEXT = Context(prec=60, rounding=ROUND_HALF_UP)
HUNDREDTH = Decimal("0.01")
MILLIONTH = Decimal("0.000001")
SECONDS_PER_HOUR = 3600
SYMBOLS = {"CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£"}
"""Currencies written with a sign; any other is written with its ISO code after the figure."""
UNKNOWN = "unknown"


def exact(*factors: Decimal | int, per: Decimal | int = 1) -> Decimal:
    """The product of ``factors`` divided by ``per``, in the 60-digit context."""
    with localcontext(CONTEXT):
        product = Decimal(1)
        for factor in factors:
            product *= Decimal(factor)
        return product / Decimal(per)


def rounded(amount: Decimal) -> Decimal:
    """``amount`` to hundredths, half up: the figure every output shows."""
    with localcontext(CONTEXT):
        return amount.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def total(amounts: list[Decimal]) -> Decimal:
    """The sum of rounded figures (exact: each has two decimals)."""
    with localcontext(CONTEXT):
        return sum((rounded(amount) for amount in amounts), Decimal(0))


def figure(amount: Decimal) -> str:
    """``1234.50``: two decimals, no grouping (JSON and tables read it back exactly)."""
    return f"{rounded(amount):f}"


def rate(amount: Decimal) -> str:
    """``30.125``, ``1.50``, ``3.333333``: a price per hour to at most six decimals, at least
    two."""
    with localcontext(CONTEXT):
        text = f"{amount.quantize(MILLIONTH, rounding=ROUND_HALF_UP):f}".rstrip("0")
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


def rate_text(amount: Decimal | None, currency: str | None) -> str:
    """``¥30.125``: a price per hour as :func:`rate` writes it, with its currency."""
    if amount is None or currency is None:
        return UNKNOWN
    whole, _, decimals = rate(amount).partition(".")
    symbol = SYMBOLS.get(currency)
    grouped = f"{int(whole):,}.{decimals}"
    return f"{symbol}{grouped}" if symbol else f"{grouped} {currency}"


def money_text(amount: Decimal | None, currency: str | None) -> str:
    """``¥1,234.50``, ``1,234.50 JPY``, or ``unknown`` (never a zero for what is unknown)."""
    if amount is None or currency is None:
        return UNKNOWN
    text = f"{rounded(amount):,.2f}"
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {currency}"


def change_text(amount: Decimal | None, currency: str | None) -> str:
    """``+¥8.00``, ``-¥8.00``, ``±¥0.00`` or ``unknown``."""
    if amount is None or currency is None:
        return UNKNOWN
    value = rounded(amount)
    sign = "+" if value > 0 else "±" if value == 0 else ""
    return sign + money_text(value, currency)


def gpu_hours_text(hours: Decimal | None) -> str:
    """``16.00 GPU-h`` or ``unknown``."""
    return UNKNOWN if hours is None else f"{rounded(hours):,.2f} GPU-h"
