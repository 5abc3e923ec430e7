"""Reading and writing YAML the same way everywhere (ruamel.yaml, safe, deterministic)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from trainstack.errors import InvalidInputError, Problem


class YamlSyntaxError(InvalidInputError):
    """A YAML file could not be parsed."""

    kind = "YAML"


def _safe() -> YAML:
    yaml = YAML(typ="safe", pure=True)
    yaml.allow_duplicate_keys = False
    return yaml


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
        raise YamlSyntaxError(source, [Problem(where, str(error.problem), "valid YAML")]) from error
    except YAMLError as error:
        raise YamlSyntaxError(source, [Problem("(document)", str(error), "valid YAML")]) from error


def dump_yaml(data: Any) -> str:
    """Block-style YAML with keys in the order given (callers sort when they need to)."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 4096
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()
