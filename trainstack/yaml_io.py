"""Reading and writing YAML the same way everywhere: safe, strict on input, deterministic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from trainstack.errors import InvalidInputError, Problem


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """libyaml's emitter; multi-line strings (commands, scripts) as literal blocks."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


class YamlSyntaxError(InvalidInputError):
    """A YAML file could not be parsed."""

    kind = "YAML"


def _safe() -> YAML:
    # C-accelerated (ruamel.yaml.clib) when available; duplicate keys stay errors.
    loader = YAML(typ="safe")
    loader.allow_duplicate_keys = False
    return loader


def read_yaml(path: Path, display: str | None = None) -> Any:
    """Parse one YAML document; syntax errors name the file, line and column."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise YamlSyntaxError(
            display or path, [Problem("(file)", "unreadable", str(error))]
        ) from error
    return parse_yaml(text, display or str(path))


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text that came from ``source``."""
    try:
        return _safe().load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(document)"
        found = str(error.problem).removeprefix("found ")
        raise YamlSyntaxError(source, [Problem(where, found, "valid YAML")]) from error
    except YAMLError as error:
        raise YamlSyntaxError(source, [Problem("(document)", str(error), "valid YAML")]) from error


def sorted_keys(value: Any) -> Any:
    """``value`` with the keys of every mapping sorted, at every depth."""
    if isinstance(value, dict):
        return {str(key): sorted_keys(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, list):
        return [sorted_keys(item) for item in value]
    return value


def canonical_yaml(document: Any) -> str:
    """Keys sorted at every level, block style: the same document always gives the same text."""
    if document is None:
        return ""
    return dump_yaml(sorted_keys(document))


def dump_yaml(data: Any) -> str:
    """Block-style YAML with keys in the order given (callers sort when they need to).

    Written with libyaml through PyYAML's C dumper: a plan writes hundreds of documents
    and the pure-Python emitter made that the slowest step of ``trainstack plan``. The
    output is the same YAML ruamel.yaml writes for plain data; comments are not needed
    here (values.yaml, which has them, is written with ruamel.yaml).
    """
    return yaml.dump(
        data,
        Dumper=_Dumper,
        default_flow_style=False,
        sort_keys=False,
        allow_unicode=True,
        width=4096,
    )
