"""A field's type and constraints in words, as the reference pages say them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import annotated_types
from pydantic import StringConstraints

from trainstack.core.names import DnsLabel
from trainstack.reference.words import type_words, without_none


def test_scalars_literals_and_containers() -> None:
    assert type_words(int) == "integer"
    assert type_words(bool | None) == "boolean"
    assert type_words(Literal["a", "b", "c"]) == "`a`, `b` or `c`"
    assert type_words(Literal[True]) == "`true`"
    assert type_words(list[str]) == "list of text"
    assert type_words(dict[str, Any]) == "mapping (free-form)"
    assert type_words(dict[str, int]) == "mapping of text to integer"
    assert type_words(int | str | bool) == "integer, text or boolean"


def test_constraints_from_the_annotation_and_the_field() -> None:
    bounded = Annotated[int, annotated_types.Ge(0), annotated_types.Le(16)]
    assert type_words(bounded) == "integer (>= 0, <= 16)"
    assert type_words(list[int], [annotated_types.MinLen(1)]) == "list of integer (at least 1 item)"
    assert type_words(str, [annotated_types.MinLen(2)]) == "text (at least 2 characters)"
    pattern = Annotated[str, StringConstraints(pattern=r"^x+$", max_length=5)]
    assert type_words(pattern) == "text (matching `^x+$`, at most 5 characters)"
    # A pattern registered with its words is said in words.
    assert type_words(DnsLabel).startswith("text (a DNS label: lowercase letters, digits and '-'")


def test_null_means_unset_and_is_left_out() -> None:
    assert without_none(int | None) is int
    assert type_words(Annotated[str, StringConstraints(max_length=3)] | None) == (
        "text (at most 3 characters)"
    )


def test_a_pattern_with_a_bar_stays_in_its_table_cell() -> None:
    alternation = Annotated[str, StringConstraints(pattern=r"^(vpc-[a-z]+|<x>)$")]
    assert type_words(alternation) == ("text (matching <code>^(vpc-[a-z]+&#124;&lt;x&gt;)$</code>)")
