"""What a cluster sends is printed with every control and invisible character escaped."""

from __future__ import annotations

import pytest

from trainstack.console.safe_text import printable


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("v1.30.7-aliyun.1", "v1.30.7-aliyun.1"),
        ("\x1b[2J\x1b]0;title\x07", "\\x1b[2J\\x1b]0;title\\x07"),
        ("line\r\nforged", "line\\r\\nforged"),
        ("tab\there", "tab\\there"),
        ("\x9b31m", "\\x9b31m"),  # C1 CSI: some terminals act on it alone
        ("\x7f", "\\x7f"),
        ("abc\u202edcba", "abc\\u202edcba"),  # right-to-left override
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("Zürich 北京", "Zürich 北京"),
        ("a\\x1b", "a\\\\x1b"),  # a backslash sent is never mistaken for an escape
    ],
)
def test_control_and_invisible_characters_are_escaped(sent: str, shown: str) -> None:
    assert printable(sent) == shown


def test_long_strings_are_cut_with_what_was_left_out() -> None:
    assert printable("x" * 250) == "x" * 200 + "... (50 more characters)"
    assert printable("x" * 250, limit=None) == "x" * 250
    assert printable("\x1b" * 10, limit=4) == "\\x1b" * 4 + "... (6 more characters)"
