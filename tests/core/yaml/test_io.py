"""The two YAML readers: bounded files, each with the semantics of the tool that reads it;
and the writer: the text PyYAML's safe dumper writes, multi-line strings as literal blocks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import helm_python
import pytest
import yaml

from trainstack.core.errors import YamlSyntaxError
from trainstack.core.yaml.io import (
    dump_yaml,
    parse_helm_yaml,
    parse_yaml,
    read_helm_yaml,
    read_yaml,
)


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


class _StockDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """PyYAML's own safe dumper, with the one style dump_yaml adds (literal blocks)."""


def _literal_when_multiline(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_StockDumper.add_representer(str, _literal_when_multiline)


def _stock(document: Any) -> str:
    return yaml.dump(
        document,
        Dumper=_StockDumper,
        default_flow_style=False,
        sort_keys=False,
        allow_unicode=True,
        width=4096,
    )


SHARED = ["a", "b"]
LOOP: list[Any] = ["x"]
LOOP.append(LOOP)


@pytest.mark.parametrize(
    "document",
    [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "data": {"run.sh": "#!/bin/sh\nset -eu\nexec python train.py\n", "empty": ""},
            "metadata": {"labels": {}, "annotations": {"a": "yes", "b": "null", "c": "0755"}},
        },
        # Texts that would read back as another type are quoted; numbers and nulls are not.
        {"texts": ["1.0", "~", "true", "2026-12-07", "-", " lead", "é", "tab\there"]},
        {"numbers": [0, -3, 2**70, 1.5, -0.0, 1e17, float("inf"), float("nan")], 7: None},
        {"flags": [True, False, None], "nested": [[], {}, [[1]], [{"k": [{}]}]]},
        # A list met twice in one document is written once and then referred to (an
        # alias), as PyYAML does; so is a list that holds itself.
        {"first": SHARED, "second": SHARED},
        LOOP,
        # Tuples are written as lists by the safe representer.
        {"pair": (1, "two")},
        "a single text",
        None,
    ],
)
def test_dump_writes_what_pyyamls_safe_dumper_writes(document: Any) -> None:
    assert dump_yaml(document) == _stock(document)


def test_dump_writes_aliases_for_a_list_met_twice() -> None:
    assert dump_yaml({"first": SHARED, "second": SHARED}) == (
        "first: &id001\n- a\n- b\nsecond: *id001\n"
    )


def test_dump_refuses_what_the_safe_dumper_refuses() -> None:
    with pytest.raises(yaml.representer.RepresenterError):
        dump_yaml({"path": Path("/etc")})
