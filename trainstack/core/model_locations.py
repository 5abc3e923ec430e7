"""Where a pydantic error is in a model, in the user's keys: the location's aliases, the
member of a union it went through, the annotations around it (for :mod:`validation`'s
problem lines)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, Discriminator, Tag

_FIELD_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
"""A part of a dotted field name: a key, or ``[n]``."""


@dataclass(frozen=True)
class Located:
    """Where an error is, in the user's keys, and the annotations around it."""

    loc: list[int | str]
    parent: Any
    """The annotation that holds the last key (lists the keys it accepts)."""
    current: Any
    """The annotation at the location (e.g. the union whose tag is missing)."""
    branched: bool
    """The location went through a member of a plain (untagged) union."""
    union_at: int
    """How many keys of ``loc`` lead to that union (all of them when not branched)."""


def field_parts(field: str) -> list[int | str]:
    """``datasets[0].source`` -> ``["datasets", 0, "source"]`` (a constraint's field path)."""
    return [int(index) if index else key for key, index in _FIELD_TOKEN.findall(field)]


def locate(model: type[BaseModel], loc: Sequence[int | str]) -> Located:
    """Drop the union members pydantic puts in a location, keeping the user's keys.

    A location such as ``("datasets", 0, "nfs", "server")`` holds the tag ``nfs`` of a
    discriminated union, and ``("points", 0, "nodes", "int")`` the member ``int`` of
    ``int | str | bool``: neither is a key the user wrote.
    """
    current: Any = model
    parent: Any = model
    kept: list[int | str] = []
    branched = False
    union_at: int | None = None
    for part in loc:
        tagged = _union_member_by_tag(current, part)
        if tagged is None:
            tagged = _union_member_by_discriminator_tag(current, part)
        if tagged is not None:
            current = tagged
            continue
        if _is_branch_label(current, part):
            branched = True
            union_at = len(kept) if union_at is None else union_at
            continue
        parent = current
        kept.append(part)
        current = _step(current, part)
    return Located(kept, parent, current, branched, len(kept) if union_at is None else union_at)


def _is_branch_label(annotation: Any, part: int | str) -> bool:
    """Whether ``part`` names a member of a plain union rather than a key of the value."""
    members = [m for m in _members(annotation) if m is not type(None)]
    if len(members) < 2 or not isinstance(part, str):
        return False
    for member in members:
        if get_origin(member) is dict:
            return False
        if isinstance(member, type) and issubclass(member, BaseModel):
            if any(part in (f.alias, n) for n, f in member.model_fields.items()):
                return False
    return True


def tags(annotation: Any, key: str) -> str:
    """The tags a discriminated union accepts at ``key``, e.g. ``'alicloud', 'existing'``."""
    found: list[str] = []
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            for name, field in member.model_fields.items():
                if key in (field.alias, name) and get_origin(field.annotation) is Literal:
                    found += [repr(tag) for tag in get_args(field.annotation)]
    return ", ".join(found) or "?"


def _union_member_by_tag(annotation: Any, part: int | str) -> Any:
    """The member of a tagged union whose literal tag is ``part``, if ``part`` is a tag."""
    if not isinstance(part, str):
        return None
    members = [m for m in _members(annotation) if isinstance(m, type) and issubclass(m, BaseModel)]
    if len(members) < 2:
        return None
    for member in members:
        if any(part in (f.alias, n) for n, f in member.model_fields.items()):
            return None
    for member in members:
        for field in member.model_fields.values():
            if get_origin(field.annotation) is Literal and part in get_args(field.annotation):
                return member
    return None


def _union_member_by_discriminator_tag(annotation: Any, part: int | str) -> Any:
    """The member tagged ``part`` of a union told apart by a callable discriminator."""
    while hasattr(annotation, "__metadata__"):
        if not any(isinstance(meta, Discriminator) for meta in annotation.__metadata__):
            annotation = get_args(annotation)[0]
            continue
        for member in get_args(get_args(annotation)[0]):
            tags = [meta for meta in getattr(member, "__metadata__", ()) if isinstance(meta, Tag)]
            if tags and tags[0].tag == part:
                return get_args(member)[0]
        return None
    return None


def aliases(annotation: Any) -> list[str]:
    """The keys a model accepts, in the user's spelling."""
    for candidate in _members(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return sorted(field.alias or name for name, field in candidate.model_fields.items())
    return []


def _step(annotation: Any, part: int | str) -> Any:
    """Follow one location step through models, lists, dicts and optionals."""
    for candidate in _members(annotation):
        if isinstance(part, int):
            args = get_args(candidate)
            if get_origin(candidate) in (list, tuple) and args:
                return args[0]
            continue
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            for name, field in candidate.model_fields.items():
                if part in (field.alias, name):
                    return field.annotation
        if get_origin(candidate) is dict:
            return get_args(candidate)[1]
    return None


def _members(annotation: Any) -> list[Any]:
    """Flatten ``X | Y | None`` and ``Annotated[...]`` into candidate types."""
    if hasattr(annotation, "__metadata__"):
        return _members(get_args(annotation)[0])
    origin = get_origin(annotation)
    if origin is None or origin in (list, tuple, dict, Literal):
        return [annotation]
    flattened: list[Any] = []
    for arg in get_args(annotation):
        flattened.extend(_members(arg))
    return flattened or [annotation]
