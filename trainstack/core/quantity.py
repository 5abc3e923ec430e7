"""Kubernetes resource quantities (``1Pi``, ``500m``, ``368Gi``) as exact numbers.

Used to compare capacities and requests at plan time; the text form stays what the
user wrote in everything that is deployed.
"""

from __future__ import annotations

import decimal
import re
from decimal import Decimal

from trainstack.core.limits import MAX_QUANTITY_CHARS, MAX_QUANTITY_VALUE

QUANTITY_PATTERN = r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$"
"""The quantities the stack configuration accepts (the common, readable subset)."""

# Exact for every quantity within the limits (64 characters), whatever its exponent: the
# default context (28 digits, exponents up to 999999) fails on `1e999999999`.
_CONTEXT = decimal.Context(
    prec=200, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[decimal.InvalidOperation]
)

# Kubernetes' full grammar (unsigned): decimal exponents and n/u suffixes included.
_QUANTITY = re.compile(
    r"(?P<number>[0-9]+(\.[0-9]*)?|\.[0-9]+)"
    r"(?P<suffix>[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?"
)

_EXPONENT_LIMIT = 1000
_SUFFIX = {
    "": Decimal(1),
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("0.001"),
    "k": Decimal(10) ** 3,
    "M": Decimal(10) ** 6,
    "G": Decimal(10) ** 9,
    "T": Decimal(10) ** 12,
    "P": Decimal(10) ** 15,
    "E": Decimal(10) ** 18,
    "Ki": Decimal(2) ** 10,
    "Mi": Decimal(2) ** 20,
    "Gi": Decimal(2) ** 30,
    "Ti": Decimal(2) ** 40,
    "Pi": Decimal(2) ** 50,
    "Ei": Decimal(2) ** 60,
}


def parse_quantity(text: str | int) -> Decimal:
    """The exact value of a quantity; raises ``ValueError`` naming the text when invalid."""
    text = str(text)
    match = _QUANTITY.fullmatch(text) if len(text) <= MAX_QUANTITY_CHARS else None
    if match is None:
        raise ValueError(f"{text[:80]!r} is not a Kubernetes quantity (e.g. 500m, 4, 16Gi, 1Pi)")
    number, suffix = Decimal(match.group("number")), match.group("suffix") or ""
    with decimal.localcontext(_CONTEXT):
        if suffix in _SUFFIX:
            return number * _SUFFIX[suffix]
        exponent = int(suffix[1:])  # a decimal exponent, e.g. 1e3
        if abs(exponent) > _EXPONENT_LIMIT:
            # Beyond any quantity Kubernetes keeps: say how, without computing it.
            return Decimal(0) if exponent < 0 or not number else Decimal("Infinity")
        return number.scaleb(exponent)


def quantity_problem(text: str) -> str | None:
    """Why ``text`` is no quantity Kubernetes keeps as written (``None``: it is one)."""
    if len(text) > MAX_QUANTITY_CHARS:
        return f"at most {MAX_QUANTITY_CHARS} characters"
    try:
        value = parse_quantity(text)
    except ValueError:
        return "a quantity such as 8, 500m or 32Gi"
    if value > MAX_QUANTITY_VALUE:
        return f"at most {MAX_QUANTITY_VALUE} (2^63-1: Kubernetes caps larger quantities)"
    return None


def format_quantity(value: Decimal, binary: bool = True) -> str:
    """A short human form of a value, for messages (``1.5Gi``, ``3``)."""
    with decimal.localcontext(_CONTEXT):
        return _format(value, binary)


def _format(value: Decimal, binary: bool) -> str:
    if binary:
        for suffix in ("Ei", "Pi", "Ti", "Gi", "Mi", "Ki"):
            unit = _SUFFIX[suffix]
            if value >= unit:
                return f"{_trim(value / unit)}{suffix}"
    return _trim(value)


def exact_quantity(value: Decimal, *, binary: bool) -> str:
    """A quantity string equal to ``value``: ``920Gi``, ``96``, ``1500m``.

    Used for objects that are deployed, so it is exact, never rounded.
    """
    with decimal.localcontext(_CONTEXT):
        return _exact(value, binary)


def _exact(value: Decimal, binary: bool) -> str:
    if binary:
        for suffix, power in (("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)):
            unit = Decimal(2) ** power
            if value >= unit and value % unit == 0:
                return f"{value // unit}{suffix}"
    if value == value.to_integral_value():
        return str(int(value))
    return f"{int(value * 1000)}m"


def _trim(value: Decimal) -> str:
    text = f"{value.quantize(Decimal('0.001')):f}".rstrip("0").rstrip(".")
    return text or "0"
