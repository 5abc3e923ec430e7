"""YAML written directly is byte for byte what PyYAML with libyaml writes, or not written."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from trainstack.yaml_emit import MAX_TEXT, block_yaml
from trainstack.yaml_io import dump_yaml, libyaml_dump

# Text made of what decides libyaml's quoting: indicators, spaces, digits, the letters of
# YAML 1.1's booleans and nulls, a tab, a newline, non-ASCII; and words that read back
# as other types.
_TEXT = st.text(
    alphabet=st.sampled_from(list(" -?:#,[]{}&*!|>'\"%@`.~=<+_/0123456789eEtTrunNlLoOfFyYsS\t\né")),
    max_size=7,
) | st.sampled_from(
    [
        "true", "Yes", "off", "NULL", "~", "", "1.5", "-.5e3", ".inf", "0x1F", "0o17", "017",
        "1_000", "1:20", "2024-01-31", "<<", "=", "---", "...", "- a", "a: b", "a #b", "a:",
        ":a", "-a", "?a", "a'b", "x" * (MAX_TEXT + 1),
    ]
)  # fmt: skip
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=1000)
@given(data=st.dictionaries(_TEXT, _VALUES, max_size=4) | st.lists(_VALUES, max_size=4))
def test_what_is_written_directly_is_what_libyaml_writes(data: Any) -> None:
    direct = block_yaml(data)
    assert direct is None or direct == libyaml_dump(data)
    assert dump_yaml(data) == libyaml_dump(data)


def test_a_kubernetes_object_is_written_directly() -> None:
    """Nesting, lists under keys and in lists, empty collections, quoted numbers and YAML
    1.1 booleans, as libyaml writes them (expected text written by hand)."""
    obj = {
        "apiVersion": "v1",
        "metadata": {"name": "x", "labels": {"app.kubernetes.io/name": "a"}},
        "data": {"replicas": "3", "empty": "", "flag": "yes", "list": [], "map": {}},
        "spec": {
            "containers": [{"name": "c", "args": ["--seed", "1"], "ports": [{"port": 80}]}],
            "nodes": [[1, 2], {}],
            "x": None,
            "on": True,
            "note": "it's: here",
        },
    }
    assert block_yaml(obj) == (
        "apiVersion: v1\n"
        "metadata:\n"
        "  name: x\n"
        "  labels:\n"
        "    app.kubernetes.io/name: a\n"
        "data:\n"
        "  replicas: '3'\n"
        "  empty: ''\n"
        "  flag: 'yes'\n"
        "  list: []\n"
        "  map: {}\n"
        "spec:\n"
        "  containers:\n"
        "  - name: c\n"
        "    args:\n"
        "    - --seed\n"
        "    - '1'\n"
        "    ports:\n"
        "    - port: 80\n"
        "  nodes:\n"
        "  - - 1\n"
        "    - 2\n"
        "  - {}\n"
        "  x: null\n"
        "  'on': true\n"
        "  note: 'it''s: here'\n"
    )


def test_what_it_cannot_vouch_for_is_left_to_pyyaml() -> None:
    shared = {"a": 1}
    for data in (
        {"command": "line one\nline two\n"},  # a literal block
        {"ratio": 0.5},
        {"name": "café"},
        {"twice": [shared, shared]},  # libyaml writes an anchor and an alias
        {1: "integer key"},
        "a root scalar",
    ):
        assert block_yaml(data) is None
        assert dump_yaml(data) == libyaml_dump(data)
