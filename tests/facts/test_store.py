"""facts/STACK.json: written byte for byte the same for the same facts, read back strictly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from trainstack.core.errors import FactsFileError, OutputError
from trainstack.facts.model import (
    AccelerationFacts,
    KubernetesFacts,
    StackFacts,
)
from trainstack.facts.store import facts_path, read_facts, write_facts


def display(path: Path) -> str:
    return f"facts/{path.name}"


def facts(stack: str = "aiacc", version: str = "v1.30.7-aliyun.1") -> StackFacts:
    return StackFacts(
        format="trainstack-facts/1",
        stack=stack,
        kubernetes=KubernetesFacts(git_version=version, platform="linux/amd64"),
        pools=[],
        other_nodes=[],
        operators=[],
        crds=[],
        kueue=None,
        acceleration=AccelerationFacts(declared=None, found=None, version=None),
    )


def test_written_once_and_read_back(tmp_path: Path) -> None:
    path, changed = write_facts(tmp_path, facts())
    assert (path, changed) == (tmp_path / "facts" / "aiacc.json", True)
    text = path.read_text()
    assert text.startswith('{\n  "acceleration": {') and text.endswith("}\n")
    assert json.loads(text)["kubernetes"] == {
        "gitVersion": "v1.30.7-aliyun.1",
        "platform": "linux/amd64",
    }
    assert write_facts(tmp_path, facts()) == (path, False)
    assert read_facts(tmp_path, "aiacc", display) == facts()
    assert read_facts(tmp_path, "baseline", display) is None
    assert sorted(p.name for p in path.parent.iterdir()) == ["aiacc.json"]


def test_a_control_character_is_written_escaped(tmp_path: Path) -> None:
    path, _ = write_facts(tmp_path, facts(version="v1\x1b[2J\u202e"))
    assert path.read_bytes().isascii()
    assert '"gitVersion": "v1\\u001b[2J\\u202e"' in path.read_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "invalid facts file in facts/aiacc.json: (document): found invalid JSON"),
        (
            json.dumps({**json.loads(json.dumps(facts().model_dump(by_alias=True))), "x": 1}),
            'invalid facts file in facts/aiacc.json: x: found unknown key "x"; allowed: one of '
            "the known keys: acceleration, crds, format",
        ),
        (
            json.dumps(facts(stack="baseline").model_dump(by_alias=True)),
            'invalid facts file in facts/aiacc.json: stack: found "baseline"; allowed: "aiacc", '
            "as in the file name",
        ),
        (
            "[" * 100 + "]" * 100,
            "invalid facts file in facts/aiacc.json: (document): found JSON nested more than 64",
        ),
        (
            '{"format": ' + "9" * 5000 + "}",
            "invalid facts file in facts/aiacc.json: (document): found a number of more digits "
            "than Python reads (4,300)",
        ),
    ],
)
def test_a_broken_file_is_one_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = facts_path(tmp_path, "aiacc")
    path.parent.mkdir()
    path.write_text(content)
    with pytest.raises(FactsFileError, match="^" + re.escape(message)):
        read_facts(tmp_path, "aiacc", display)


def test_a_directory_is_no_facts_file(tmp_path: Path) -> None:
    facts_path(tmp_path, "aiacc").mkdir(parents=True)
    with pytest.raises(FactsFileError, match="found not a regular file"):
        read_facts(tmp_path, "aiacc", display)


def test_links_are_never_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "facts").symlink_to(elsewhere)
    with pytest.raises(OutputError, match="is a symbolic link"):
        write_facts(tmp_path, facts())
    assert list(elsewhere.iterdir()) == []
