"""Turn pydantic's structured errors into :class:`~trainstack.core.errors.Problem` lines.

Each problem names the dotted key path in the user's spelling, the value found
and what is allowed, so one message tells the user exactly what to change.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails

from trainstack.core.base_model import CONSTRAINT_ERROR, PATTERN_WORDS, constraint
from trainstack.core.describe import describe_value, did_you_mean
from trainstack.core.errors import Problem
from trainstack.core.key_paths import dotted_path
from trainstack.core.model_locations import Located, aliases, field_parts, locate, tags

_ITEM = re.compile(r"\[\d+\]")

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
    "multiple_of": "a multiple of {multiple_of}",
    "decimal_max_digits": "a number of at most {max_digits} digits",
    "decimal_max_places": "a number of at most {decimal_places} decimal places",
    "decimal_whole_digits": "a number of at most {whole_digits} digits before the point",
}
_MORE_WORDS = {
    "finite_number": "a finite number",
    "decimal_type": "a number",
    "decimal_parsing": "a number",
    "set_type": "a list of distinct items",
    "frozen_set_type": "a list of distinct items",
    "string_unicode": "text",
    "bytes_type": "text",
    "datetime_type": "a date and time (RFC 3339)",
    "datetime_parsing": "a date and time (RFC 3339)",
    "date_type": "a date (YYYY-MM-DD)",
    "date_parsing": "a date (YYYY-MM-DD)",
    "url_type": "a URL",
    "url_parsing": "a URL",
    "url_scheme": "a URL of scheme {expected_schemes}",
    "json_invalid": "JSON text",
    "is_instance_of": "a value of type {class}",
}
"""More of pydantic's error types, in our words (its own end the message otherwise:
"Input should be a finite number")."""
_THEIR_WORDS = re.compile(r"^(Input should be |Value error, |Assertion failed, )")


def problems_from(
    error: ValidationError, model: type[BaseModel], prefix: str = ""
) -> list[Problem]:
    """One :class:`Problem` per wrong value the user wrote, in a stable order.

    pydantic reports a value that fits no member of a union once per member (at
    ``points[0].nodes.int``, ``.str``, ``.bool``), a list member once per wrong item
    (``command.list[str].0``): one problem at the user's key, what each member allows.
    """
    problems: set[Problem] = set()
    unions: dict[str, list[Problem]] = {}
    for detail in error.errors():
        located = locate(model, detail["loc"])
        problem = _problem(detail, located, prefix)
        if located.branched and detail["type"] != CONSTRAINT_ERROR:
            at = dotted_path(located.loc[: located.union_at], prefix)
            unions.setdefault(at, []).append(problem)
        else:
            problems.add(problem)
    for at, found in unions.items():
        problems.update(_one_per_union(at, found))
    return sorted(problems, key=lambda problem: (problem.path, problem.found))


def _one_per_union(at: str, found: list[Problem]) -> set[Problem]:
    """The problems of a value that fits no member of the union at ``at``: one line."""
    shallow = [problem for problem in found if problem.path == at]
    items = [problem for problem in found if _ITEM.fullmatch(problem.path.removeprefix(at))]
    if shallow and items and len(shallow) + len(items) == len(found):
        each = " or ".join(sorted({problem.allowed for problem in items}))
        kinds = sorted({p.allowed for p in shallow} | {f"a list whose every item is {each}"})
        return {Problem(at, shallow[0].found, "one of: " + "; ".join(kinds))}
    branches: dict[tuple[str, str], set[str]] = {}
    for problem in found:
        branches.setdefault((problem.path, problem.found), set()).add(problem.allowed)
    words = {key: sorted(kinds) for key, kinds in branches.items()}
    one_of = {key: k[0] if len(k) == 1 else "one of: " + "; ".join(k) for key, k in words.items()}
    return {Problem(path, value, allowed) for (path, value), allowed in one_of.items()}


def _problem(detail: ErrorDetails, located: Located, prefix: str) -> Problem:
    loc = located.loc
    kind = detail["type"]
    ctx: dict[str, Any] = dict(detail.get("ctx") or {})
    value = detail.get("input")
    if kind == CONSTRAINT_ERROR:
        path = dotted_path([*loc, *field_parts(str(ctx["field"]))], prefix)
        related = tuple(
            dotted_path([*loc, *field_parts(str(key))], prefix) for key in ctx.get("related", ())
        )
        return Problem(path, describe_value(ctx["found"]), str(ctx["allowed"]), related)
    path = dotted_path(loc, prefix)
    if kind == "missing":
        return Problem(path, "nothing (the key is missing)", "a value: this key is required")
    if kind == "extra_forbidden":
        known = aliases(located.parent)
        allowed = f"one of the known keys: {', '.join(known)}" if known else "no other keys"
        guess = did_you_mean(str(loc[-1]), known)
        return Problem(path, f"unknown key {describe_value(loc[-1])}{guess}", allowed)
    if kind in ("literal_error", "enum"):
        return Problem(path, describe_value(value), f"one of {ctx.get('expected', '?')}")
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        key = str(ctx.get("discriminator", "type")).strip("'")
        found = describe_value(ctx["tag"]) if "tag" in ctx else "nothing (the key is missing)"
        expected = ctx.get("expected_tags") or tags(located.current, key)
        return Problem(dotted_path([*loc, key], prefix), found, f"one of {expected}")
    if kind == "string_pattern_mismatch" and ctx.get("pattern") in PATTERN_WORDS:
        return Problem(path, describe_value(value), PATTERN_WORDS[ctx["pattern"]])
    if kind in _BOUND_WORDS:
        return Problem(path, describe_value(value), _BOUND_WORDS[kind].format(**ctx))
    if kind in _TYPE_WORDS:
        return Problem(path, describe_value(value), _TYPE_WORDS[kind])
    if kind in _MORE_WORDS:
        with contextlib.suppress(KeyError, IndexError):
            return Problem(path, describe_value(value), _MORE_WORDS[kind].format(**ctx))
    # Any other: pydantic's words without its phrasing ("Input should be ...").
    words = _THEIR_WORDS.sub("", str(detail["msg"])).rstrip(".")
    return Problem(path, describe_value(value), words[:1].lower() + words[1:])


def errors_under(error: ValidationError, key: str) -> ValidationError:
    """``error`` of a model validated inside another's validator, moved under ``key``.

    ``key`` is a dotted path of the outer model (``nodePools[0]``). Raised from that
    validator, each error is named as if the outer model's own field had failed: the same
    path and words, since the inner model's types are what made it.
    """
    prefix = field_parts(key)
    details: list[InitErrorDetails] = []
    for item in error.errors():
        loc = (*prefix, *item["loc"])
        ctx: dict[str, Any] = dict(item.get("ctx") or {})
        if item["type"] == CONSTRAINT_ERROR:
            made = constraint(
                str(ctx["field"]),
                ctx["found"],
                str(ctx["allowed"]),
                tuple(str(key) for key in ctx.get("related", ())),
            )
            details.append(InitErrorDetails(type=made, loc=loc, input=item["input"]))
        else:
            details.append(
                InitErrorDetails(type=item["type"], loc=loc, input=item["input"], ctx=ctx)
            )
    return ValidationError.from_exception_data(error.title, details)
