"""JSON's nesting, measured on the bytes before any decoder recurses into it."""

from __future__ import annotations

import json

import pytest

from trainstack.core.json_depth import raw_too_deep, too_deep
from trainstack.core.limits import MAX_JSON_DEPTH


def nested(depth: int) -> bytes:
    return b'{"a":' * (depth - 1) + b"[1]" + b"}" * (depth - 1)


@pytest.mark.parametrize("depth", [1, 2, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1])
def test_the_same_answer_as_the_decoded_walk(depth: int) -> None:
    data = nested(depth)
    assert raw_too_deep(data) == too_deep(json.loads(data)) == (depth > MAX_JSON_DEPTH)


def test_brackets_in_strings_do_not_count() -> None:
    inside = json.dumps({"label": "[" * 1000, "escaped": '\\"[[[[' * 100}).encode()
    assert not raw_too_deep(inside)
    assert raw_too_deep(b"[" * 100_000 + b"]" * 100_000)


def test_unbalanced_text_still_gets_an_answer() -> None:
    assert raw_too_deep(b"[" * 65)
    assert not raw_too_deep(b"]" * 1000)
    assert not raw_too_deep(b'"unterminated [[[[[[')
