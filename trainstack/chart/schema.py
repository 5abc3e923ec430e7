"""``values.schema.json``: the model as a strict JSON schema (draft-07) that Helm enforces.

Nested objects are written out in full (no ``$ref``) so that any Helm version and any
editor reads it. Objects Helm fills from values.yaml require every key that has a
non-null default there; Helm drops null values, so those keys stay optional, and so do
keys a user may set to null (``security.seccompProfile: null``: Helm deletes a key given
as null, and the templates read a missing key as unset). Objects inside lists are not
filled by Helm, so they require only what the model requires.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, get_args

from pydantic import BaseModel, TypeAdapter

from trainstack.chart.fields import Group, Param, walk
from trainstack.training_job import TrainingJob

DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def values_schema() -> dict[str, Any]:
    """The schema of the chart's values."""
    schema = _object(TrainingJob, walk(TrainingJob))
    schema["$schema"] = DRAFT_07
    schema["title"] = "Values of the training-job chart"
    return schema


def schema_text() -> str:
    """The schema file's bytes: sorted keys, two-space indent, final newline."""
    return json.dumps(values_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _object(model: type[BaseModel], nodes: tuple[Group | Param, ...]) -> dict[str, Any]:
    properties = {node.key: _node(node) for node in nodes}
    required = [
        node.key
        for node in nodes
        if isinstance(node, Group)
        or node.required
        or (node.default is not None and not _nullable(node))
    ]
    schema: dict[str, Any] = {
        "type": "object",
        "description": _first_line(model.__doc__),
        "additionalProperties": False,
        "properties": properties,
    }
    if required:
        schema["required"] = required
    extra = model.model_config.get("json_schema_extra")
    if isinstance(extra, dict):  # rules between keys the model states for its schema too
        schema.update(extra)
    return schema


def _nullable(param: Param) -> bool:
    """Whether the value may be null (the user may unset it)."""
    annotation: Any = param.field.annotation
    return annotation is None or type(None) in get_args(annotation)


def _node(node: Group | Param) -> dict[str, Any]:
    if isinstance(node, Group):
        schema = _object(node.model, node.children)
    else:
        schema = _leaf(node)
    if node.field.description:
        schema["description"] = node.field.description
    return schema


def _leaf(param: Param) -> dict[str, Any]:
    annotation: Any = param.field.annotation
    if param.field.metadata:  # the Field's own constraints: ge, max_length, pattern...
        annotation = Annotated[(annotation, *param.field.metadata)]
    raw = TypeAdapter(annotation).json_schema(by_alias=True, mode="validation")
    defs = raw.pop("$defs", {})
    schema: dict[str, Any] = _inline(raw, defs)
    if not param.required:
        schema["default"] = param.default
    return schema


# Subschemas that state a condition between keys, not an object of their own: closing them
# (additionalProperties false) would make the condition never hold.
_CONDITIONS = ("if", "then", "else", "not")


def _inline(node: Any, defs: dict[str, Any], condition: bool = False) -> Any:
    """Replace ``$ref`` by the definition and drop pydantic's generated titles."""
    if isinstance(node, list):
        return [_inline(item, defs, condition) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = node["$ref"].rsplit("/", 1)[-1]
        merged = {**defs[target], **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(merged, defs, condition)
    inlined = {
        key: _inline(value, defs, condition or key in _CONDITIONS)
        for key, value in node.items()
        if key != "title"
    }
    if "properties" in inlined and not condition:
        # objects in lists: pydantic lists what the model requires; keep it, close them
        inlined["additionalProperties"] = False
        if isinstance(inlined.get("description"), str):
            inlined["description"] = _first_line(inlined["description"])
    return inlined


def _first_line(text: str | None) -> str:
    """A model docstring's first sentence-line, unwrapped."""
    if not text:
        return ""
    paragraph = text.strip().split("\n\n", 1)[0]
    return " ".join(paragraph.split())
