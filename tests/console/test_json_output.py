"""What every ``--format json`` prints: parseable, ASCII, keys in the order given."""

from __future__ import annotations

import json

from trainstack.console.json_output import json_text


def test_control_characters_and_non_ascii_are_escaped() -> None:
    document = {"z": "\x1b[2J\x07\x9b\u202e", "a": ["ü", 1.5, None, True]}
    text = json_text(document)
    assert text.endswith("}\n") and text.count("\n") == text.rstrip("\n").count("\n") + 1
    assert all(32 <= ord(char) < 127 for char in text.replace("\n", ""))
    assert json.loads(text) == document
    assert list(json.loads(text)) == ["z", "a"]  # not sorted: the shape's own order
