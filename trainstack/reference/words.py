"""A field's type and constraints in words, for the generated reference pages.

``list of integer (>= 0)``, ```alicloud` or `existing```, ``text: a DNS label...``: read
from the annotation and its metadata (pydantic's ``Annotated`` constraints), so that the
page says what the validation enforces, never a second opinion of it.
"""

from __future__ import annotations

import html
import types
from decimal import Decimal
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic.types import StringConstraints

from trainstack.core.base_model import PATTERN_WORDS

_SCALARS = {
    bool: "boolean",
    int: "integer",
    float: "number",
    Decimal: "decimal number",
    str: "text",
}
_BOUNDS = (
    (annotated_types.Ge, "ge", ">="),
    (annotated_types.Gt, "gt", ">"),
    (annotated_types.Le, "le", "<="),
    (annotated_types.Lt, "lt", "<"),
)


def models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models an annotation holds (itself, its items, the members of a union)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for argument in get_args(annotation) for model in models_in(argument)]


def without_none(annotation: Any) -> Any:
    """``X | None`` -> ``X`` (null means "unset" everywhere in trainstack's files)."""
    if _is_union(annotation):
        members = [member for member in get_args(annotation) if member is not type(None)]
        if len(members) == 1:
            return members[0]
        return Union[tuple(members)]  # noqa: UP007 -- built from a runtime tuple
    if get_origin(annotation) is Annotated:
        inner, *metadata = get_args(annotation)
        stripped = without_none(inner)
        if stripped is not inner:
            return Annotated[(stripped, *metadata)]
    return annotation


def type_words(annotation: Any, metadata: list[Any] | None = None) -> str:
    """What values the annotation (with a field's own ``metadata``) accepts, in words."""
    annotation = without_none(annotation)
    found = list(metadata or [])
    if get_origin(annotation) is Annotated:
        annotation, *extra = get_args(annotation)
        found += extra
        annotation = without_none(annotation)
    words = _bare(annotation)
    unit = "characters" if annotation is str else "items"
    limits = [limit for item in found for limit in _limits(item, unit)]
    return f"{words} ({', '.join(limits)})" if limits else words


def field_words(field: FieldInfo) -> str:
    """A field's type and constraints in words."""
    return type_words(field.annotation, list(field.metadata))


def _bare(annotation: Any) -> str:
    origin = get_origin(annotation)
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    if annotation is Any:
        return "any value"
    if origin is Literal:
        return _alternatives([f"`{_literal(value)}`" for value in get_args(annotation)])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "mapping (keys below)"
    if _is_union(annotation):
        if all(models_in(member) for member in get_args(annotation)):
            return "mapping: one of the kinds below"
        return _alternatives([type_words(member) for member in get_args(annotation)])
    if origin is list:
        (item,) = get_args(annotation)
        return f"list of {type_words(item)}"
    if origin is dict:
        key, value = get_args(annotation)
        if value is Any:
            return "mapping (free-form)"
        return f"mapping of {type_words(key)} to {type_words(value)}"
    return getattr(annotation, "__name__", str(annotation))


def _limits(item: Any, unit: str) -> list[str]:
    if isinstance(item, StringConstraints):
        limits = []
        if item.pattern is not None:
            pattern = str(item.pattern)
            limits.append(PATTERN_WORDS.get(pattern) or f"matching {code(pattern)}")
        if item.min_length is not None:
            limits.append(f"at least {_count(item.min_length, 'characters')}")
        if item.max_length is not None:
            limits.append(f"at most {_count(item.max_length, 'characters')}")
        return limits
    for kind, attribute, sign in _BOUNDS:
        if isinstance(item, kind):
            return [f"{sign} {getattr(item, attribute)}"]
    if isinstance(item, annotated_types.MinLen):
        return [f"at least {_count(item.min_length, unit)}"]
    if isinstance(item, annotated_types.MaxLen):
        return [f"at most {_count(item.max_length, unit)}"]
    return []


def code(text: str) -> str:
    """Inline code that survives a table cell: a ``|`` (a pattern's alternation) would
    split it, so such text is an HTML ``<code>`` with the bar as an entity, which GitHub
    and the site both show as written."""
    if "|" not in text:
        return f"`{text}`"
    return f"<code>{html.escape(text, quote=False).replace('|', '&#124;')}</code>"


def _count(number: int, unit: str) -> str:
    return f"{number} {unit[:-1] if number == 1 else unit}"


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _alternatives(options: list[str]) -> str:
    if len(options) == 1:
        return options[0]
    return f"{', '.join(options[:-1])} or {options[-1]}"


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType)
