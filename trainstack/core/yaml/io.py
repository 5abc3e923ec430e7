"""Reading and writing YAML the same way everywhere: bounded and strict on input, deterministic.

Two readers, each with the semantics of the tool that reads the file for real:

- stack files and ``Pulumi.yaml`` (:func:`read_yaml`): YAML 1.2 as Pulumi's Go yaml.v3
  reads them (``yes`` is the text "yes"), through ruamel.yaml;
- experiment files and chart values (:func:`read_helm_yaml`): exactly as ``helm install
  -f`` reads them, through Helm's own reader (YAML 1.1: ``yes`` is true, ``0755`` is 493).

Both read at most :data:`~trainstack.core.limits.MAX_FILE_BYTES` of UTF-8 and check the
document's shape (:mod:`trainstack.core.yaml.scan`) before parsing it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from trainstack.core.errors import Problem, YamlSyntaxError
from trainstack.core.files import read_source
from trainstack.core.yaml.scan import check_yaml, locate_scalar

_TAG = "tag:yaml.org,2002:"
_RESOLVED_MAX = 4096
"""Plain texts whose implicit type is remembered: the first met, as a plan's keys are (most
other values are met once; a bigger memo only held them alive)."""
_resolved: dict[tuple[str, tuple[bool, bool]], str] = {}


class _NotPlain(Exception):
    """A document the one-pass representation does not cover (see :class:`_Dumper`)."""


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """libyaml's emitter; multi-line strings (commands, scripts) as literal blocks.

    Three shortcuts give the same nodes as PyYAML's safe representer, faster (a plan of
    1,000 experiments writes 600,000 scalars): text, booleans, integers and nulls become
    scalar nodes directly (the safe representer never makes aliases of them); a document
    of plain mappings, lists and scalars is turned into nodes in one pass, without the
    representer's bookkeeping of aliases, which only matters for a mapping or list met
    twice in one document (then the document is represented the stock way, aliases and
    all); and whether a plain text would read back as another type (which decides its
    quoting) is worked out once per text.
    """

    def represent(self, data: Any) -> None:
        if self.default_flow_style is not False or self.sort_keys:
            super().represent(data)
            return
        try:
            node = self._plain_node(data, set())
        except _NotPlain:
            super().represent(data)
            return
        self.serialize(node)

    def _plain_node(self, data: Any, containers: set[int]) -> yaml.Node:
        """``data``'s node, as :meth:`represent_data` makes it with block style and keys in
        their order; raises :class:`_NotPlain` for anything else (a container met twice,
        a type other than dict, list, text, number, boolean or null)."""
        kind = type(data)
        if kind is dict or kind is list:
            if id(data) in containers:
                raise _NotPlain
            containers.add(id(data))
            if kind is dict:
                pairs = [
                    (self._plain_node(key, containers), self._plain_node(value, containers))
                    for key, value in data.items()
                ]
                return yaml.MappingNode(_TAG + "map", pairs, flow_style=False)
            items = [self._plain_node(item, containers) for item in data]
            return yaml.SequenceNode(_TAG + "seq", items, flow_style=False)
        if kind is float:
            return self.represent_float(data)
        if kind is str or kind is bool or kind is int or data is None:
            return self.represent_data(data)
        raise _NotPlain

    def represent_data(self, data: Any) -> yaml.Node:
        kind = type(data)
        if kind is str:
            return yaml.ScalarNode(_TAG + "str", data, style="|" if "\n" in data else None)
        if kind is bool:
            return yaml.ScalarNode(_TAG + "bool", "true" if data else "false")
        if kind is int:
            return yaml.ScalarNode(_TAG + "int", str(data))
        if data is None:
            return yaml.ScalarNode(_TAG + "null", "null")
        return super().represent_data(data)

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is not yaml.ScalarNode or len(value) > 64:
            return super().resolve(kind, value, implicit)
        tag = _resolved.get((value, implicit))
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(_resolved) < _RESOLVED_MAX:
                _resolved[(value, implicit)] = tag
        return tag


class _Constructor(SafeConstructor):
    """ruamel.yaml's safe constructor, with dates and times kept as the text written.

    Pulumi reads stack files with Go's yaml.v3, which decodes an unquoted date into a
    string (not a time) when the target is untyped, as Pulumi's config is.
    """


_Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)


def _safe() -> YAML:
    # C-accelerated (ruamel.yaml.clib) when available; duplicate keys stay errors.
    loader = YAML(typ="safe")
    loader.Constructor = _Constructor
    loader.allow_duplicate_keys = False
    return loader


def read_yaml(path: Path, display: str | None = None) -> Any:
    """Parse one YAML document as Pulumi does (stack files, ``Pulumi.yaml``).

    The document is checked first (:mod:`trainstack.core.yaml.scan`); syntax errors name the
    file, line and column.
    """
    source = display or str(path)
    return parse_yaml(read_source(path, source).text, source)


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML text that came from ``source`` (checked, then read by ruamel.yaml)."""
    check_yaml(text, source)
    try:
        return _safe().load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(document)"
        # The same words as the pre-scan's (never "found did not find expected ','").
        found = f"invalid YAML ({' '.join(str(error.problem or error).split())})"
        raise YamlSyntaxError(source, [Problem(where, found, "valid YAML")]) from None
    except (YAMLError, ValueError, KeyError, TypeError) as error:
        found = f"invalid YAML ({' '.join(str(error).split())})"
        raise YamlSyntaxError(source, [Problem("(document)", found, "valid YAML")]) from None


def read_helm_yaml(path: Path, display: str | None = None) -> dict[str, Any]:
    """Read a values-like file exactly as ``helm install -f`` reads it (a mapping).

    Helm's own reader (through helm-python-sdk): YAML 1.1 (``yes`` is true, ``0755`` is
    493), numbers as Helm holds them. The document is checked first
    (:mod:`trainstack.core.yaml.scan`) so that Helm's recursive Go decoder only ever sees a
    bounded one.
    """
    source = display or str(path)
    return parse_helm_yaml(read_source(path, source).text, source)


def parse_helm_yaml(text: str, source: str) -> dict[str, Any]:
    """:func:`read_helm_yaml` for text already in memory."""
    import helm_python

    check_yaml(text, source)
    try:
        values = helm_python.values_from_yaml(text)
    except helm_python.HelmError as error:
        message = " ".join(str(error).split())
        found = _HELM_LINE.sub("", message).removeprefix("error converting YAML to JSON: ")
        raise YamlSyntaxError(
            source,
            [Problem(_helm_position(message, text), f"invalid YAML ({found})", "valid YAML")],
        ) from None
    return values if isinstance(values, dict) else {}


_HELM_LINE = re.compile(r"yaml: line (\d+): ")
_HELM_QUOTED = re.compile(r"`([^`]*)`")


def _helm_position(message: str, text: str) -> str:
    """Where Helm's error is: its own line number, else the value it quotes, found again."""
    line = _HELM_LINE.search(message)
    if line is not None:
        return f"line {line.group(1)}"
    quoted = _HELM_QUOTED.search(message)
    where = locate_scalar(text, quoted.group(1)) if quoted else None
    return where or "(document)"


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
