"""Value types shared by the training-job models: quantities, label maps, paths, names.

Each type validates in Python and carries the JSON schema Helm checks, so a bad value
is rejected with the same meaning by ``trainstack`` and by ``helm install``. Patterns
keep ``^...$`` for the JSON schema (where ``$`` ends the text); Python checks them with
``re.fullmatch``, since Python's ``$`` also matches before a final newline.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails, core_schema

from trainstack.core.base_model import constraint, pattern
from trainstack.core.limits import MAX_QUANTITY_CHARS, MAX_QUANTITY_VALUE
from trainstack.core.names import (
    DNS_SUBDOMAIN_PATTERN,
    LABEL_KEY_PATTERN,
    LABEL_KEY_WORDS,
    LABEL_VALUE_PATTERN,
    is_label_key,
)
from trainstack.core.quantity import quantity_problem

# Kubernetes' resource.Quantity grammar without a sign: a negative request is never meant.
QUANTITY_PATTERN = (
    r"^(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))"
    r"(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
ENV_NAME_PATTERN = r"^[-._a-zA-Z][-._a-zA-Z0-9]*$"
# No control characters: a newline would forge a line of the lists the preflight reads
# ("<what> <path>" a line: charts/training-job/files/preflight.sh), and no path needs one.
ABSOLUTE_PATH_PATTERN = pattern(
    r"^/[^\x00-\x1f\x7f]*$", "an absolute path (starting with /, no control characters)"
)
NO_SPACE_PATTERN = pattern(r"^\S+$", "text without spaces")


def _int_to_text(value: Any) -> Any:
    """YAML reads ``cpu: 8`` as an integer; Kubernetes accepts it, so keep it as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


@dataclass(frozen=True)
class CountOrText:
    """Pydantic metadata: text matching ``pattern`` that YAML users may also write as a
    bare integer (``cpu: 8``); the integer is kept as text. ``words`` say in errors what
    is allowed, instead of the regular expression; ``problem`` refuses values the
    pattern cannot (too large for Kubernetes), saying why."""

    pattern: str
    minimum: int
    words: str
    maximum: int
    max_length: int
    problem: Callable[[str], str | None]

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        checked = core_schema.no_info_after_validator_function(
            self._check, core_schema.str_schema()
        )
        return core_schema.no_info_before_validator_function(_int_to_text, checked)

    def _check(self, value: str) -> str:
        if len(value) > self.max_length or re.fullmatch(self.pattern, value) is None:
            raise constraint("", value, self.words)
        problem = self.problem(value)
        if problem is not None:
            raise constraint("", value, problem)
        return value

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "anyOf": [
                {"type": "integer", "minimum": self.minimum, "maximum": self.maximum},
                {"type": "string", "pattern": self.pattern, "maxLength": self.max_length},
            ]
        }


Quantity = Annotated[
    str,
    CountOrText(
        QUANTITY_PATTERN,
        minimum=0,
        words="a quantity such as 8, 500m or 32Gi",
        maximum=MAX_QUANTITY_VALUE,
        max_length=MAX_QUANTITY_CHARS,
        problem=quantity_problem,
    ),
]
"""A Kubernetes resource quantity such as ``8``, ``500m``, ``32Gi``."""

DnsName = Annotated[str, StringConstraints(max_length=253, pattern=DNS_SUBDOMAIN_PATTERN)]
"""A Kubernetes object name (RFC 1123 subdomain): claims, secrets, priority classes."""

AbsolutePath = Annotated[str, StringConstraints(min_length=2, pattern=ABSOLUTE_PATH_PATTERN)]
"""An absolute path inside the container (never ``/`` itself)."""


def raise_for_keys(problems: list[tuple[str, Any, str]]) -> None:
    """Report each bad entry of a map at its own key: ``labels["app.kubernetes.io/x"]``.

    A constraint's field is a dotted path, which a label key full of dots would break,
    so the key goes into the error's location instead.
    """
    if problems:
        details = [
            InitErrorDetails(type=constraint("", found, allowed), loc=(key,), input=found)
            for key, found, allowed in problems
        ]
        raise ValidationError.from_exception_data("map", details)


def _check_labels(values: dict[str, str]) -> dict[str, str]:
    problems: list[tuple[str, Any, str]] = []
    for key, value in values.items():
        if not is_label_key(key):
            problems.append((key, key, LABEL_KEY_WORDS))
        elif re.fullmatch(LABEL_VALUE_PATTERN, value) is None:
            problems.append(
                (key, value, "a label value: at most 63 letters, digits, '-', '_', '.'")
            )
    raise_for_keys(problems)
    return values


def _check_annotation_keys(values: dict[str, str]) -> dict[str, str]:
    raise_for_keys(
        [
            (key, key, f"an annotation key: {LABEL_KEY_WORDS.removeprefix('a label key: ')}")
            for key in values
            if not is_label_key(key)
        ]
    )
    return values


def _map_schema(key_pattern: str, value_schema: dict[str, Any]) -> WithJsonSchema:
    """The JSON schema of a string map whose keys match ``key_pattern``."""
    return WithJsonSchema(
        {
            "type": "object",
            "propertyNames": {"pattern": key_pattern},
            "additionalProperties": value_schema,
        }
    )


LabelMap = Annotated[
    dict[str, str],
    AfterValidator(_check_labels),
    _map_schema(LABEL_KEY_PATTERN, {"type": "string", "pattern": LABEL_VALUE_PATTERN}),
]
"""Kubernetes labels (also node selectors): both keys and values are checked."""

AnnotationMap = Annotated[
    dict[str, str],
    AfterValidator(_check_annotation_keys),
    _map_schema(LABEL_KEY_PATTERN, {"type": "string"}),
]
"""Kubernetes annotations: keys are checked, values are free text."""
