"""Turn pydantic's structured errors into :class:`~trainstack.errors.Problem` lines.

Each problem names the dotted key path in the user's spelling, the value found
and what is allowed, so one message tells the user exactly what to change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, Discriminator, Tag, ValidationError
from pydantic_core import ErrorDetails

from trainstack.base_model import CONSTRAINT_ERROR
from trainstack.errors import Problem, describe_value

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_FIELD_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")

_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "none_required": "nothing (null)",
}

_BOUND_WORDS = {
    "greater_than": "a number > {gt}",
    "greater_than_equal": "a number >= {ge}",
    "less_than": "a number < {lt}",
    "less_than_equal": "a number <= {le}",
    "string_too_short": "a string of at least {min_length} characters",
    "string_too_long": "a string of at most {max_length} characters",
    "too_short": "at least {min_length} item(s)",
    "too_long": "at most {max_length} item(s)",
    "string_pattern_mismatch": "a string matching {pattern}",
}


def dotted_path(loc: Iterable[int | str], prefix: str = "") -> str:
    """``("nodePool", "instanceTypes", 0)`` -> ``nodePool.instanceTypes[0]`` (after ``prefix``).

    Keys that are not plain words (label keys such as ``trainstack.io/pool``) are
    written ``labels["trainstack.io/pool"]`` so that the path stays unambiguous.
    """
    text = prefix
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not _PLAIN_KEY.match(str(part)):
            text += f"[{json.dumps(str(part))}]"
        elif text and not text.endswith((":", ".")):
            text += f".{part}"
        else:
            text += str(part)
    return text.rstrip(".")


def problems_from(
    error: ValidationError, model: type[BaseModel], prefix: str = ""
) -> list[Problem]:
    """One :class:`Problem` per pydantic error, in a stable order."""
    problems = [_problem(detail, model, prefix) for detail in error.errors()]
    return sorted(set(problems), key=lambda problem: problem.path)


def _problem(detail: ErrorDetails, model: type[BaseModel], prefix: str) -> Problem:
    loc, parent = _user_loc(model, detail["loc"])
    kind = detail["type"]
    ctx: dict[str, Any] = dict(detail.get("ctx") or {})
    value = detail.get("input")
    if kind == CONSTRAINT_ERROR:
        path = dotted_path([*loc, *_field_parts(str(ctx["field"]))], prefix)
        return Problem(path, describe_value(ctx["found"]), str(ctx["allowed"]))
    path = dotted_path(loc, prefix)
    if kind == "missing":
        return Problem(path, "nothing (the key is missing)", "a value: this key is required")
    if kind == "extra_forbidden":
        known = _aliases(parent)
        allowed = f"one of the known keys: {', '.join(known)}" if known else "no other keys"
        return Problem(path, f"unknown key {describe_value(loc[-1])}", allowed)
    if kind in ("literal_error", "enum"):
        return Problem(path, describe_value(value), f"one of {ctx.get('expected', '?')}")
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        key = str(ctx.get("discriminator", "type")).strip("'")
        found = describe_value(ctx["tag"]) if "tag" in ctx else "nothing (the key is missing)"
        return Problem(dotted_path([*loc, key], prefix), found, f"one of {ctx['expected_tags']}")
    if kind in _BOUND_WORDS:
        return Problem(path, describe_value(value), _BOUND_WORDS[kind].format(**ctx))
    if kind in _TYPE_WORDS:
        return Problem(path, describe_value(value), _TYPE_WORDS[kind])
    return Problem(path, describe_value(value), detail["msg"])


def _field_parts(field: str) -> list[int | str]:
    """``datasets[0].source`` -> ``["datasets", 0, "source"]`` (a constraint's field path)."""
    return [int(index) if index else key for key, index in _FIELD_TOKEN.findall(field)]


def _user_loc(model: type[BaseModel], loc: Sequence[int | str]) -> tuple[list[int | str], Any]:
    """Drop the union tags pydantic puts in a location; also return the parent annotation.

    A location such as ``("datasets", 0, "nfs", "server")`` holds the tag ``nfs`` of a
    discriminated union, which is not a key the user wrote. The parent annotation is
    the model that holds the last key (for listing the keys it accepts).
    """
    current: Any = model
    parent: Any = model
    kept: list[int | str] = []
    for part in loc:
        tagged = _union_member_by_tag(current, part)
        if tagged is None:
            tagged = _union_member_by_discriminator_tag(current, part)
        if tagged is not None:
            current = tagged
            continue
        parent = current
        kept.append(part)
        current = _step(current, part)
    return kept, parent


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


def _aliases(annotation: Any) -> list[str]:
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
