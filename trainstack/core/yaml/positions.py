"""Line numbers for messages: where a dotted key path is written in the file a message names.

E.g. ``trainstack:nodePools[0].gpusPerNode`` in ``stacks/Pulumi.aiacc.yaml``.

Files are parsed for their values by ruamel.yaml (stack files) or Helm's reader
(experiment files), neither of which keeps positions; this module reads the same text
again, only when a message is printed, as libyaml's event stream (the pre-scan's parser,
:mod:`trainstack.core.yaml.scan`), so that positions never cost anything on the way to a
plan. Whoever prints a message passes the files it names, as they were read
(:data:`trainstack.core.mentions.Files`: an error's own, a stack's, a plan's); a message whose
file is not among them (values handed over by the Pulumi engine), cannot be read again, or
whose key is not written in it, simply has no line.

A key that is not written (a missing required key) is located at its closest written
parent: ``nodePools[0].desiredSize`` missing points at the pool's line. In a stack file
the keys are under ``config:`` (``trainstack:cluster`` is ``config["trainstack:cluster"]``).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from trainstack.core.errors import TrainstackError
from trainstack.core.files import read_source
from trainstack.core.mentions import Files, located_mentions

Location = tuple[int | str, ...]

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TOKEN = re.compile(r'\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|([^.\[\]]+)')
# Messages may name a file with a suffix: `experiments/x.yaml (matrix point gpus=2)`.
_SUFFIX = re.compile(r"^(?P<file>\S+?\.ya?ml)(?P<rest>(?: .*)?)$", re.DOTALL)
NO_FILES: Files = MappingProxyType({})


def split_source(source: str) -> tuple[str, str]:
    """``("experiments/x.yaml", " (matrix point gpus=2)")`` from a message's source."""
    match = _SUFFIX.match(source)
    if match is None:
        return source, ""
    return match.group("file"), match.group("rest")


def at(source: str, key: str, files: Files = NO_FILES) -> str:
    """``source:LINE`` when ``source`` is one of ``files`` and ``key`` (a dotted path) can be
    found in it, else ``source``."""
    file, rest = split_source(source)
    path = files.get(file)
    line = key_line(path, key) if path is not None else None
    return f"{file}:{line}{rest}" if line is not None else source


def where_written(key: str, source: str, files: Files = NO_FILES) -> str:
    """``FILE:LINE: KEY`` for a key listed with its file (``FILE: KEY``: a cluster
    template's, an experiment's) or, listed bare, written in ``source``; without the line
    when it cannot be found in ``files``."""
    file, separator, bare = key.partition(": ")
    if not (separator and split_source(file)[0].endswith((".yaml", ".yml"))):
        file, bare = source, key
    return f"{at(file, bare, files)}: {bare}"


def locate_mentions(text: str, files: Files = NO_FILES) -> str:
    """``text`` with each ``FILE: KEY`` it mentions as ``FILE:LINE: KEY``
    (:func:`trainstack.core.errors.located_mentions`, lines found here in ``files``)."""
    return located_mentions(text, lambda file, key: at(file, key, files))


def key_line(path: Path, key: str) -> int | None:
    """The 1-based line of ``key`` (or of its closest written parent) in the file ``path``."""
    location = parse_key(key)
    if not location:
        return None
    try:
        lines = _key_lines(read_source(path).text)
    except (OSError, TrainstackError, yaml.YAMLError):
        return None
    for candidate in (location, ("config", *location)):
        for end in range(len(candidate), 0, -1):
            found = lines.get(candidate[:end])
            if found is not None and (end > 1 or candidate is location):
                return found
    return None


def parse_key(key: str) -> Location:
    """``trainstack:nodePools[0].labels["a.b/c"]`` -> ``("trainstack:nodePools", 0, "labels",
    "a.b/c")``; ``()`` for what is no key path (``(file)``, ``line 3, column 1``)."""
    text = key.strip()
    if not text or text.startswith("(") or " " in text:
        return ()
    parts: list[int | str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() != position and text[position : match.start()] != ".":
            return ()
        quoted, index, word = match.groups()
        if quoted is not None:
            parts.append(json.loads(f'"{quoted}"'))
        elif index is not None:
            parts.append(int(index))
        else:
            parts.append(word)
        position = match.end()
    return tuple(parts) if position == len(text) else ()


@functools.lru_cache(maxsize=16)
def _key_lines(text: str) -> dict[Location, int]:
    """Every key path of a document (and list item) with its line.

    Kept by the text itself, read again for each message (bounded, a few kB): parsing is
    what costs when many messages name one file, and a file rewritten within the clock's
    tick (same path, same modification time) can never get the lines of its old text.
    """
    loader = _Loader(text)
    lines: dict[Location, int] = {}
    # One entry per open collection: [is_mapping, current key or index, expecting a key]
    open_: list[list[Any]] = []
    here: list[int | str] = []
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return lines
            if isinstance(event, yaml.CollectionEndEvent):
                open_.pop()
                if here:
                    here.pop()
                _after_node(open_, here)
                continue
            if not isinstance(
                event, yaml.ScalarEvent | yaml.AliasEvent | yaml.CollectionStartEvent
            ):
                continue
            top = open_[-1] if open_ else None
            line = event.start_mark.line + 1
            if top is not None and top[0] and top[2]:
                # A key of a mapping: the path of its value.
                key = event.value if isinstance(event, yaml.ScalarEvent) else "?"
                top[1], top[2] = key, False
                lines.setdefault((*here, key), line)
                continue
            if top is not None and not top[0]:
                lines.setdefault((*here, top[1]), line)
            if isinstance(event, yaml.CollectionStartEvent):
                if top is not None:
                    here.append(top[1])
                open_.append([isinstance(event, yaml.MappingStartEvent), 0, True])
                continue
            _after_node(open_, here)
    finally:
        loader.dispose()


def _after_node(open_: list[list[Any]], here: list[int | str]) -> None:
    """A value was read: the enclosing mapping expects a key, a list its next item."""
    if not open_:
        return
    top = open_[-1]
    if top[0]:
        top[2] = True
    else:
        top[1] += 1
