"""Check a YAML document's shape before any reader builds it: bounded, plain, one document.

The check streams libyaml's parse events. libyaml's parser is a state machine with
explicit stacks (no recursion), and the stream is abandoned at the first problem, so a
hostile document costs microseconds here instead of a stack overflow, an exponential
alias expansion or minutes in the readers that come after (ruamel.yaml's composer and
Helm's Go decoder both recurse and both expand aliases). go-yaml, which Helm and Pulumi
read YAML with, is a port of libyaml: both split documents into events the same way.

Refused, each with the key path and the line:

- nesting deeper than :data:`~trainstack.core.limits.MAX_YAML_DEPTH`;
- more than :data:`~trainstack.core.limits.MAX_YAML_NODES` nodes or
  :data:`~trainstack.core.limits.MAX_YAML_EXPANDED_CHARS` characters once aliases are expanded
  (counted from each anchor's size, never by expanding), a string longer than
  :data:`~trainstack.core.limits.MAX_SCALAR_CHARS`, an alias to no earlier anchor;
- explicit tags but ``!!str`` (``!!binary``, ``!!set``, ``!!timestamp``, ``!!int``,
  ``!python/...``): they mean a different value to each reader, or none;
- keys that are not plain text, a key given twice in one mapping (Helm would silently
  keep the last), infinity and NaN (not representable in JSON, which Helm and Pulumi
  pass values as), more than one document, a root that is not a mapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from trainstack.core.errors import InputLimitError, Problem, YamlSyntaxError
from trainstack.core.key_paths import dotted_path
from trainstack.core.limits import (
    MAX_SCALAR_CHARS,
    MAX_YAML_DEPTH,
    MAX_YAML_EXPANDED_CHARS,
    MAX_YAML_NODES,
)

_CORE = "tag:yaml.org,2002:"
# `!!str` forces text (`!!str 0755`); every other tag means something different to
# ruamel.yaml, Helm and Pulumi, or nothing (`!!int x`), so only plain values are read.
ALLOWED_TAGS = frozenset({f"{_CORE}str"})
ALLOWED_COLLECTION_TAGS = frozenset({f"{_CORE}map", f"{_CORE}seq"})
# YAML 1.1 and 1.2 spellings of infinity and NaN (plain scalars only).
_NOT_A_NUMBER = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SHOWN_DEPTH = 8  # key paths in messages: the first levels only
# libyaml 0.2.6 (bundled with PyYAML 6.0.4) stops nesting deeper than 1,000 levels itself,
# while scanning ahead of the events this check counts: far past MAX_YAML_DEPTH, so such a
# document is refused with trainstack's own limit, whichever libyaml reads it.
_READER_NESTING_LIMIT = "exceeded maximum nesting depth"


@dataclass
class _Open:
    """A mapping or list whose end has not been reached yet."""

    is_mapping: bool
    anchor: str | None
    nodes_before: int
    chars_before: int
    reading_key: bool = True
    key: str | None = None
    index: int = 0
    keys: set[str] = field(default_factory=set)


@dataclass
class _Scan:
    """The state of one scan: open collections, anchors, and the expanded totals so far."""

    source: str
    open: list[_Open] = field(default_factory=list)
    anchors: dict[str, tuple[int, int]] = field(default_factory=dict)
    nodes: int = 0
    chars: int = 0
    documents: int = 0

    def where(self, mark: Any) -> str:
        """``job.worker (line 3, column 5)``: the key being read, and the position."""
        parts: list[int | str] = []
        for collection in self.open:
            if collection.is_mapping:
                if not collection.reading_key and collection.key is not None:
                    parts.append(collection.key)
            else:
                parts.append(collection.index)
        position = f"line {mark.line + 1}, column {mark.column + 1}"
        path = dotted_path(parts[:_SHOWN_DEPTH])
        if len(parts) > _SHOWN_DEPTH:
            path += f"... ({len(parts)} levels)"
        return f"{path} ({position})" if path else position

    def fail(self, mark: Any, found: str, allowed: str, *, limit: bool = False) -> None:
        error = InputLimitError if limit else YamlSyntaxError
        raise error(self.source, [Problem(self.where(mark), found, allowed)])

    def count(self, mark: Any, nodes: int, chars: int) -> None:
        self.nodes += nodes
        self.chars += chars
        if self.nodes > MAX_YAML_NODES:
            self.fail(
                mark,
                f"more than {MAX_YAML_NODES} keys, values and items (aliases expanded)",
                f"at most {MAX_YAML_NODES} (trainstack's limit on one document)",
                limit=True,
            )
        if self.chars > MAX_YAML_EXPANDED_CHARS:
            self.fail(
                mark,
                f"more than {MAX_YAML_EXPANDED_CHARS} characters of values (aliases expanded)",
                f"at most {MAX_YAML_EXPANDED_CHARS} (trainstack's limit on one document)",
                limit=True,
            )

    def finish_node(self, mark: Any, key_text: str | None) -> None:
        """A whole node was read: it is a key or a value of the enclosing collection."""
        if not self.open:
            return
        parent = self.open[-1]
        if not parent.is_mapping:
            parent.index += 1
            return
        if not parent.reading_key:
            parent.reading_key, parent.key = True, None
            return
        if key_text is None:
            self.fail(mark, "a key that is a mapping, a list or an alias", "plain text keys")
        assert key_text is not None
        if key_text in parent.keys:
            self.fail(
                mark,
                f"the key {key_text!r} a second time in the same mapping",
                "each key once (Helm would silently keep the last one)",
            )
        parent.keys.add(key_text)
        parent.reading_key, parent.key = False, key_text


def check_yaml(text: str, source: str) -> None:
    """Refuse what is listed in the module docstring; ``source`` names the file in errors."""
    scan = _Scan(source)
    loader = _Loader(text)
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return
            _on_event(scan, event)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        if mark is not None and _READER_NESTING_LIMIT in str(error.problem):
            _too_deep(scan, mark)
        found = f"invalid YAML ({error.problem or error})"
        if mark is None:
            raise YamlSyntaxError(source, [Problem("(document)", found, "valid YAML")]) from None
        scan.fail(mark, found, "valid YAML")
    except yaml.YAMLError as error:
        found = f"invalid YAML ({error})"
        raise YamlSyntaxError(source, [Problem("(document)", found, "valid YAML")]) from None
    finally:
        loader.dispose()


def _on_event(scan: _Scan, event: Any) -> None:
    mark = event.start_mark
    if isinstance(event, yaml.DocumentStartEvent):
        scan.documents += 1
        if scan.documents > 1:
            scan.fail(mark, "a second YAML document (---)", "one document per file")
    elif isinstance(event, yaml.ScalarEvent):
        _on_scalar(scan, event)
    elif isinstance(event, yaml.AliasEvent):
        size = scan.anchors.get(event.anchor)
        if size is None:
            scan.fail(mark, f"the alias *{event.anchor}", "aliases of anchors defined before them")
        assert size is not None
        scan.count(mark, *size)
        scan.finish_node(mark, None)
    elif isinstance(event, yaml.CollectionStartEvent):
        _on_collection(scan, event)
    elif isinstance(event, yaml.CollectionEndEvent):
        closed = scan.open.pop()
        if closed.anchor is not None:
            scan.anchors[closed.anchor] = (
                scan.nodes - closed.nodes_before,
                scan.chars - closed.chars_before,
            )
        scan.finish_node(mark, None)


def _on_scalar(scan: _Scan, event: Any) -> None:
    mark, value = event.start_mark, event.value
    if not scan.open:
        if event.tag is not None or value.strip() not in ("", "~", "null", "Null", "NULL"):
            scan.fail(mark, f"a single value ({value[:40]!r})", "a mapping of keys and values")
    if event.tag is not None and event.tag not in ALLOWED_TAGS:
        scan.fail(mark, f"the tag {_short(event.tag)}", _TAG_HELP)
    if len(value) > MAX_SCALAR_CHARS:
        scan.fail(
            mark,
            f"a string of {len(value)} characters",
            f"at most {MAX_SCALAR_CHARS} characters (trainstack's limit)",
            limit=True,
        )
    if not event.style and _NOT_A_NUMBER.fullmatch(value):  # plain (unquoted) only
        scan.fail(mark, value, "a finite number (JSON, in which values travel, has no infinity)")
    scan.count(mark, 1, len(value))
    if event.anchor is not None:
        scan.anchors[event.anchor] = (1, len(value))
    scan.finish_node(mark, value)


def _on_collection(scan: _Scan, event: Any) -> None:
    mark = event.start_mark
    is_mapping = isinstance(event, yaml.MappingStartEvent)
    if not scan.open and not is_mapping:
        scan.fail(mark, "a list", "a mapping of keys and values")
    if event.tag is not None and event.tag not in ALLOWED_COLLECTION_TAGS:
        scan.fail(mark, f"the tag {_short(event.tag)}", _TAG_HELP)
    if len(scan.open) >= MAX_YAML_DEPTH:
        _too_deep(scan, mark)
    scan.count(mark, 1, 0)
    scan.open.append(_Open(is_mapping, event.anchor, scan.nodes - 1, scan.chars))


def _too_deep(scan: _Scan, mark: Any) -> None:
    scan.fail(
        mark,
        f"mappings and lists nested more than {MAX_YAML_DEPTH} deep",
        f"at most {MAX_YAML_DEPTH} levels (trainstack's limit)",
        limit=True,
    )


_TAG_HELP = "plain values (no explicit tag but !!str)"


def locate_scalar(text: str, value: str) -> str | None:
    """``line L, column C`` of the first scalar written as ``value`` (for messages only)."""
    loader = _Loader(text)
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return None
            if isinstance(event, yaml.ScalarEvent) and event.value == value:
                mark = event.start_mark
                return f"line {mark.line + 1}, column {mark.column + 1}"
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()


def _short(tag: str) -> str:
    return f"!!{tag.removeprefix(_CORE)}" if tag.startswith(_CORE) else tag
