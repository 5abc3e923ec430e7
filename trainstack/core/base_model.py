"""The base of every user-facing model: strict, camelCase keys, one description per field.

Cross-field rules raise :func:`constraint` so that the error names the exact key
(``nodePool.autoscaling.minSize``) with the value found and what is allowed,
like pydantic's own per-field errors do.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

CONSTRAINT_ERROR = "trainstack_constraint"

PATTERN_WORDS: dict[str, str] = {}
"""What a pattern allows, in words, for error messages (registered by :func:`pattern`)."""


def pattern(regex: str, words: str) -> str:
    """``regex``, remembering ``words`` to say what it allows when a value does not match."""
    if PATTERN_WORDS.setdefault(regex, words) != words:
        raise ValueError(f"{regex} is described twice: {PATTERN_WORDS[regex]!r}, {words!r}")
    return regex


class StrictModel(BaseModel):
    """Unknown keys are errors; YAML keys are the camelCase aliases of the attributes.

    Strict types: ``true`` is not the number 1 and ``4.0`` is not the integer 4, as in
    the chart's JSON schema (``gpusPerNode: true`` is refused, never read as one GPU).
    """

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
        frozen=True,
        defer_build=True,
    )


def constraint(
    field: str, found: Any, allowed: str, related: tuple[str, ...] = ()
) -> PydanticCustomError:
    """An error about ``field`` of the model being validated (raise it from a validator).

    ``field`` is a dotted path relative to the model, in the user's spelling; ``related``
    are other keys of the same model the error is about too (e.g. the other release of an
    incompatible pair): messages locate them in the file as well.
    """
    context: dict[str, Any] = {"field": field, "found": found, "allowed": allowed}
    if related:
        context["related"] = related
    return PydanticCustomError(
        CONSTRAINT_ERROR, "{field}: found {found}; allowed: {allowed}", context
    )
