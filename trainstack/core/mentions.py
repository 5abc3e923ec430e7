"""The files messages name (:data:`Files`, where their keys' lines are found), and the keys
a message mentions in another file than its own: ``FILE: KEY``.

A stack's cluster and pools may be written in a cluster template, its teams in the stack
file, a job's keys in an experiment file: a message names each key with the file that
holds it, ``FILE: KEY``, and gains the key's line only when printed (``FILE:LINE: KEY``),
so that a line that moves is no new message (a plan compares messages across
revisions). Lines are found by the caller's ``locate``
(:func:`trainstack.core.yaml.positions.at`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

Files = Mapping[str, Path]
"""Files that messages name, by the name they give them (``stacks/Pulumi.aiacc.yaml``): where
each is on disk, for its keys' lines. A file not listed (values the Pulumi engine handed
over, text given on the command line) is named without lines."""

Locate = Callable[[str, str, Files], str]
"""``(source, key path, files)`` -> where the key is written: ``source:LINE`` when ``source``
is one of ``files`` and the key is found in it, else ``source``."""


def unlocated(source: str, key: str, files: Files) -> str:
    """No line: the file as the message names it."""
    return source


# `stacks/templates/workload-1-ack.yaml: nodePools[0].desiredSize` in a message's text: the
# key ends before a space, a comma, a closing parenthesis or a sentence's full stop.
_MENTION = re.compile(
    r"(?<![\w./-])(?P<file>[\w./-]+\.ya?ml): "
    r"(?P<key>[\w:][\w:.\[\]/-]*?)(?=[\s,;)`]|\.?$|\.\s)"
)


def located_mentions(text: str, locate: Callable[[str, str], str]) -> str:
    """``text`` with each key it mentions as ``FILE: KEY`` (a stack file's, a cluster
    template's, an experiment's) named with its line where ``locate`` finds it,
    ``FILE:LINE: KEY``: messages say where a value is written without keeping a line that
    moves (a plan compares its messages across revisions)."""
    return _MENTION.sub(lambda m: f"{locate(m['file'], m['key'])}: {m['key']}", text)


def written_in(source: str, path: str) -> tuple[str, str]:
    """``(file, key)`` of a problem's path: ``FILE: KEY`` names its own file."""
    file, separator, key = path.partition(": ")
    if separator and file.endswith((".yaml", ".yml")) and " " not in file:
        return file, key
    return source, path
