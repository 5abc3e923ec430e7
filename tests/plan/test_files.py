"""The plan files' shapes: one encoding, byte-stable, readable by the diff in old and new form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainstack.core.errors import DiffError
from trainstack.diff.snapshot import load_snapshot
from trainstack.plan.files import ResourceItem, decode, encode


def _old_writer(data: object) -> bytes:
    """How plans were written before the typed models (the standard library's encoder)."""
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


DOCUMENTS = [
    [],
    {},
    {"b": [1, 2.5, {"z": None, "a": True}], "a": "é ü 日本", "c": {"": [], "x": {}}},
    [{"urn": "u", "inputs": {"values": {"env": {"B": "2", "A": "1"}}}, "n": -3}],
]


@pytest.mark.parametrize("document", DOCUMENTS, ids=range(len(DOCUMENTS)))
def test_encoding_is_the_old_writers_bytes(document: object) -> None:
    assert encode(document) == _old_writer(document)


def test_structs_encode_their_fields_in_sorted_order() -> None:
    item = ResourceItem(urn="u", type="t", name="n", inputs={"b": 1, "a": 2})
    assert encode([item]).decode() == (
        "[\n"
        "  {\n"
        '    "inputs": {\n'
        '      "a": 2,\n'
        '      "b": 1\n'
        "    },\n"
        '    "name": "n",\n'
        '    "options": {},\n'
        '    "parent": "",\n'
        '    "type": "t",\n'
        '    "urn": "u"\n'
        "  }\n"
        "]\n"
    )


def test_a_plan_of_the_old_writer_without_options_is_read(tmp_path: Path) -> None:
    """Plans written by earlier trainstack versions (no ``options``, no ``parent``)."""
    plan = tmp_path / "old"
    plan.mkdir()
    resource = {
        "urn": "urn:pulumi:old::p::kubernetes:core/v1:Namespace::vision",
        "type": "kubernetes:core/v1:Namespace",
        "name": "vision",
        "inputs": {"kind": "Namespace", "metadata": {"name": "vision"}},
    }
    (plan / "resources.json").write_bytes(_old_writer([resource]))
    snapshot = load_snapshot(plan)
    assert [key.label for key in snapshot.objects] == ["Namespace vision"]


def test_a_field_of_the_wrong_type_names_the_item(tmp_path: Path) -> None:
    path = tmp_path / "resources.json"
    data = b'[{"urn": "u", "type": "t", "name": "n"}, {"urn": 7, "type": "t", "name": "n"}]'
    with pytest.raises(DiffError, match=r"resources.json: item \[1\]\.urn: expected `str`"):
        decode(data, list[ResourceItem], path)
