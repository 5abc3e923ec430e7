"""The two YAML readers: bounded files, each with the semantics of the tool that reads it."""

from __future__ import annotations

from pathlib import Path

import helm_python
import pytest

from trainstack.core.errors import YamlSyntaxError
from trainstack.core.yaml.io import parse_helm_yaml, parse_yaml, read_helm_yaml, read_yaml


def test_a_non_utf8_byte_is_located(tmp_path: Path) -> None:
    path = tmp_path / "stack.yaml"
    path.write_bytes(b"config:\n  a: caf\xe9\n")
    with pytest.raises(YamlSyntaxError) as caught:
        read_yaml(path, "stack.yaml")
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.allowed) == (
        "line 2, column 9",
        "the byte 0xe9, which is not UTF-8",
        "UTF-8 text",
    )


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_yaml(path) == {"a": 1}


def test_stack_files_read_as_pulumi_does() -> None:
    """YAML 1.2, as Go's yaml.v3 reads it into Pulumi's untyped config: yes is text and a
    date stays the text written."""
    assert parse_yaml("a: yes\nb: 2024-01-01\nc: 1.5\n", "s.yaml") == {
        "a": "yes",
        "b": "2024-01-01",
        "c": 1.5,
    }


def test_stack_files_are_checked_before_they_are_parsed() -> None:
    with pytest.raises(YamlSyntaxError, match="the tag !!binary"):
        parse_yaml("a: !!binary aGVsbG8=\n", "s.yaml")


def test_the_readme_experiment_example_reads_as_helm_reads_it() -> None:
    text = (
        "name: imagenet-tensorflow\n"
        "job:\n"
        "  image: {name: cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0}\n"
        "  worker: {replicas: 4, gpus: 4}  # a comment\n"
    )
    assert parse_helm_yaml(text, "e.yaml") == {
        "name": "imagenet-tensorflow",
        "job": {
            "image": {"name": "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"},
            "worker": {"replicas": 4, "gpus": 4},
        },
    }


def test_values_have_helms_yaml_11_meaning() -> None:
    values = parse_helm_yaml("a: yes\nb: off\nc: 0755\nd: 0x1f\ne: 2024-01-01\nf: ~\n", "v.yaml")
    assert values == {"a": True, "b": False, "c": 493, "d": 31, "e": "2024-01-01", "f": None}


def test_an_empty_values_file_is_no_values(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("# nothing yet\n")
    assert read_helm_yaml(path) == {}


def test_helm_reader_errors_keep_the_line() -> None:
    # Tabs for indentation: libyaml and Helm both refuse them.
    with pytest.raises(YamlSyntaxError, match=r"line 2, column 1\): found invalid YAML"):
        parse_helm_yaml("a:\n\tb: 1\n", "v.yaml")


def test_a_helm_error_without_a_line_is_located_by_the_value_it_quotes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(_: str) -> dict[str, object]:
        raise helm_python.HelmValuesError(
            "error converting YAML to JSON: yaml: cannot decode !!str `x` as a !!int"
        )

    monkeypatch.setattr(helm_python, "values_from_yaml", refuse)
    with pytest.raises(YamlSyntaxError) as caught:
        parse_helm_yaml("a: 1\nb: x\n", "v.yaml")
    (problem,) = caught.value.problems
    assert problem.path == "line 2, column 4"
    assert problem.found == "invalid YAML (yaml: cannot decode !!str `x` as a !!int)"
