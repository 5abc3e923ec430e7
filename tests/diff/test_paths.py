"""Locations in documents and the leaves that differ."""

from __future__ import annotations

from trainstack.diff.paths import (
    MISSING,
    LeafChange,
    dotted,
    leaf_changes,
    leaves_equal_to,
    replaced,
)


def test_dotted_matches_the_masker_spelling() -> None:
    assert dotted(("spec", "containers", 0, "env", 2, "value")) == "spec.containers[0].env[2].value"
    assert dotted(()) == ""


def test_leaf_changes_reports_each_differing_leaf() -> None:
    before = {"a": 1, "b": {"c": [1, 2]}, "gone": True}
    after = {"a": 1, "b": {"c": [1, 3, 4]}, "new": "x"}

    assert list(leaf_changes(before, after)) == [
        LeafChange(("b", "c", 1), 2, 3),
        LeafChange(("b", "c", 2), MISSING, 4),
        LeafChange(("gone",), True, MISSING),
        LeafChange(("new",), MISSING, "x"),
    ]


def test_leaves_found_and_replaced() -> None:
    document = {"data": {"a": "[secret]", "b": "plain"}, "list": ["[secret]"]}

    found = list(leaves_equal_to(document, "[secret]"))

    assert found == [("data", "a"), ("list", 0)]
    assert replaced(document, {("data", "a"): "X"}) == {
        "data": {"a": "X", "b": "plain"},
        "list": ["[secret]"],
    }
