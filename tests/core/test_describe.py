"""How values from users' files are shown in error messages."""

from __future__ import annotations

from trainstack.core.describe import describe_value


def test_values_are_shown_on_one_short_line() -> None:
    assert describe_value("a\nb") == '"a\\nb"'
    assert len(describe_value("x" * 500)) == 80
    assert describe_value(2**70) == "1180591620717411303424"


def test_a_value_json_cannot_encode_is_shown_by_repr_not_refused() -> None:
    deep: list[object] = []
    deep.append(deep)  # a cycle: json.dumps raises ValueError
    assert describe_value(deep) == "[[...]]"
