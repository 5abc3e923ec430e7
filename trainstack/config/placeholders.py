"""Explicit placeholders: values a stack must set before it is deployed.

Example stacks cannot know a user's cluster IDs, VPCs or pinned digests. Instead of
plausible-looking inventions they hold placeholders in one recognisable form,
``<what to put here>``: the offline plan works with them and lists each one under
"set before deploying", and the program refuses to deploy while any is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

PLACEHOLDER_PATTERN = r"<[^<>\n]{1,200}>"
"""The one placeholder form: text in angle brackets, e.g. ``<ACK cluster ID>`` (usable in
pydantic patterns, whose Rust regex `$` never matches before a trailing newline)."""

_PLACEHOLDER = re.compile(PLACEHOLDER_PATTERN)


def is_placeholder(value: Any) -> bool:
    """Whether ``value`` is a placeholder (the whole value, nothing around it)."""
    return isinstance(value, str) and _PLACEHOLDER.fullmatch(value) is not None


def placeholders(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(dotted key, placeholder) of every placeholder inside ``value``, found at ``path``."""
    if is_placeholder(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from placeholders(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from placeholders(item, f"{path}[{index}]")
