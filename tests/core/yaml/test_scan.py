"""check_yaml: the shape of a document is checked before any reader builds it."""

from __future__ import annotations

import pytest
import yaml

from trainstack.core.errors import InputLimitError, YamlSyntaxError
from trainstack.core.limits import MAX_SCALAR_CHARS, MAX_YAML_DEPTH, MAX_YAML_NODES
from trainstack.core.yaml.scan import check_yaml, locate_scalar


def _laughs(levels: int, width: int = 10) -> str:
    """The classic alias bomb: each level lists the previous one ``width`` times."""
    lines = [f"l0: &l0 [{', '.join(['x'] * width)}]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def test_plain_documents_pass() -> None:
    check_yaml("a: 1\nb: [x, {c: d}]\nanchor: &x {k: v}\nalias: *x\n", "f.yaml")
    check_yaml("", "empty.yaml")
    check_yaml("~\n", "null.yaml")
    check_yaml("a: !!str 0755\n", "f.yaml")


def test_an_alias_bomb_is_refused_by_its_expanded_size() -> None:
    bomb = _laughs(9)  # 10^9 nodes once expanded, under 1 KB of text
    assert len(bomb) < 1024
    with pytest.raises(InputLimitError, match=rf"at most {MAX_YAML_NODES} \(trainstack") as caught:
        check_yaml(bomb, "bomb.yaml")
    (problem,) = caught.value.problems
    assert problem.path.startswith("l4[")  # 10 * 10^4 expanded nodes: the first level over


def test_aliases_within_the_limit_are_fine() -> None:
    check_yaml(_laughs(4), "f.yaml")  # 10^4 nodes


# Both parsers PyYAML offers: libyaml (which stops at its own depth of 1,000 since 0.2.6,
# bundled with PyYAML 6.0.4) and the pure-Python one (no depth limit of its own). Whichever
# reads the file, the refusal is trainstack's, with trainstack's limit.
PARSERS = [
    pytest.param(getattr(yaml, "CSafeLoader", None), id="libyaml"),
    pytest.param(yaml.SafeLoader, id="python"),
]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("opening", ["[", "{a: "])
@pytest.mark.parametrize("depth", [MAX_YAML_DEPTH + 1, 1_001, 100_000])
def test_deep_flow_nesting_is_refused_at_the_limit(
    opening: str, depth: int, parser: type | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parser is None:
        pytest.skip("this PyYAML was built without libyaml")
    monkeypatch.setattr("trainstack.core.yaml.scan._Loader", parser)
    closing = "]" if opening == "[" else "}"
    text = "a: " + opening * depth + "1" + closing * depth + "\n"
    with pytest.raises(InputLimitError, match=f"nested more than {MAX_YAML_DEPTH} deep") as caught:
        check_yaml(text, "deep.yaml")
    (problem,) = caught.value.problems
    assert problem.allowed == f"at most {MAX_YAML_DEPTH} levels (trainstack's limit)"
    assert "(line 1, column " in problem.path


def test_deep_block_nesting_names_the_key_and_the_line() -> None:
    text = "".join("  " * level + f"k{level}:\n" for level in range(70)) + "  " * 70 + "x: 1\n"
    with pytest.raises(InputLimitError) as caught:
        check_yaml(text, "deep.yaml")
    (problem,) = caught.value.problems
    assert (
        problem.path
        == f"k0.k1.k2.k3.k4.k5.k6.k7... (64 levels) (line {MAX_YAML_DEPTH + 1}, column 129)"
    )


def test_the_allowed_depth_passes() -> None:
    depth = MAX_YAML_DEPTH - 1  # plus the root mapping
    check_yaml("a: " + "[" * depth + "]" * depth + "\n", "f.yaml")


@pytest.mark.parametrize(
    ("text", "path", "found"),
    [
        ("a: !!binary aGVsbG8=\n", "a (line 1, column 4)", "the tag !!binary"),
        ("a: !!set {x, y}\n", "a (line 1, column 4)", "the tag !!set"),
        ("a: !!timestamp 2024-01-01\n", "a (line 1, column 4)", "the tag !!timestamp"),
        ("a: !!python/object:os.system x\n", "a (line 1, column 4)", "the tag !!python/object"),
        ("a: !custom x\n", "a (line 1, column 4)", "the tag !custom"),
        ("a: !!int x\n", "a (line 1, column 4)", "the tag !!int"),
    ],
)
def test_explicit_tags_are_refused(text: str, path: str, found: str) -> None:
    with pytest.raises(
        YamlSyntaxError, match=r"plain values \(no explicit tag but !!str\)"
    ) as caught:
        check_yaml(text, "tags.yaml")
    (problem,) = caught.value.problems
    assert problem.path == path
    assert problem.found.startswith(found)


@pytest.mark.parametrize(
    ("text", "path", "found", "allowed"),
    [
        (
            "a: 1\nb:\n  c: 1\n  c: 2\n",
            "b (line 4, column 3)",
            "the key 'c' a second time in the same mapping",
            "each key once (Helm would silently keep the last one)",
        ),
        (
            "a: .inf\n",
            "a (line 1, column 4)",
            ".inf",
            "a finite number (JSON, in which values travel, has no infinity)",
        ),
        (
            "a: [.NaN]\n",
            "a[0] (line 1, column 5)",
            ".NaN",
            "a finite number (JSON, in which values travel, has no infinity)",
        ),
        ("a: *nowhere\n", "a (line 1, column 4)", "the alias *nowhere", "aliases of anchors"),
        ("- a\n- b\n", "line 1, column 1", "a list", "a mapping of keys and values"),
        ("just text\n", "line 1, column 1", "a single value ('just text')", "a mapping"),
        ("a: 1\n---\nb: 2\n", "line 2, column 1", "a second YAML document (---)", "one document"),
        (
            "? [a, b]\n: 1\n",
            "line 1, column 8",
            "a key that is a mapping, a list or an alias",
            "plain",
        ),
    ],
)
def test_what_readers_would_take_differently_is_refused(
    text: str, path: str, found: str, allowed: str
) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        check_yaml(text, "f.yaml")
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (path, found)
    assert problem.allowed.startswith(allowed)


def test_quoted_infinity_is_text() -> None:
    check_yaml('a: ".inf"\n', "f.yaml")


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(YamlSyntaxError, match=r"the alias \*a; allowed: aliases of anchors"):
        check_yaml("a: &a [1, *a]\n", "f.yaml")


def test_long_strings_are_refused() -> None:
    with pytest.raises(InputLimitError, match=f"at most {MAX_SCALAR_CHARS} characters"):
        check_yaml("a: " + "x" * (MAX_SCALAR_CHARS + 1) + "\n", "f.yaml")


def test_syntax_errors_name_the_line() -> None:
    with pytest.raises(
        YamlSyntaxError, match=r"a\[1\] \(line 2, column 2\): found invalid YAML \(did not"
    ):
        check_yaml("a: [1\nb: 2\n", "f.yaml")


def test_control_characters_are_refused() -> None:
    with pytest.raises(YamlSyntaxError, match="found invalid YAML"):
        check_yaml("a: \x00\n", "f.yaml")


def test_locate_scalar_finds_a_value_written_in_the_text() -> None:
    assert locate_scalar("a: 1\nb:\n  - x\n", "x") == "line 3, column 5"
    assert locate_scalar("a: 1\n", "y") is None
