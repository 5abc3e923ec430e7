"""Walk the ``TrainingJob`` model into the chart's documented parameters.

values.yaml, values.schema.json and the README all come from this one walk, so the
three can only differ in presentation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter
from pydantic.fields import FieldInfo

from trainstack.core.errors import ChartError


@dataclass(frozen=True)
class Param:
    """A documented leaf value: a scalar, a list or a free-form map."""

    path: str
    key: str
    field: FieldInfo
    default: Any
    required: bool

    @property
    def description(self) -> str:
        return self.field.description or ""

    @property
    def example(self) -> Any:
        """The first example of the field (shown as ``## e.g.``), or None."""
        return self.field.examples[0] if self.field.examples else None

    def item_model(self) -> type[BaseModel] | None:
        """The model of the items when the value is a list of objects."""
        if get_origin(self.field.annotation) is list:
            (item,) = get_args(self.field.annotation)
            if isinstance(item, type) and issubclass(item, BaseModel):
                return item
        return None


@dataclass(frozen=True)
class Group:
    """A nested object of the values whose keys are documented one by one."""

    path: str
    key: str
    field: FieldInfo
    model: type[BaseModel]
    children: tuple[Group | Param, ...]


def documented_fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """The model's fields in the order the chart documents them: declaration order, or the
    model's own ``documented_order()`` when it declares one (a role inherits its overrides,
    which pydantic would list before the role's counts)."""
    order = getattr(model, "documented_order", None)
    if order is None:
        return dict(model.model_fields)
    names: tuple[str, ...] = order()
    if sorted(names) != sorted(model.model_fields):
        raise ChartError(f"{model.__name__}.documented_order() must name each field once")
    return {name: model.model_fields[name] for name in names}


def walk(model: type[BaseModel], prefix: str = "") -> tuple[Group | Param, ...]:
    """The model's fields in documented order, nested objects expanded."""
    nodes: list[Group | Param] = []
    for name, field in documented_fields(model).items():
        key = field.alias or name
        path = f"{prefix}{key}"
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            children = walk(annotation, f"{path}.")
            nodes.append(Group(path, key, field, annotation, children))
        else:
            nodes.append(Param(path, key, field, _default(path, field), field.is_required()))
    return tuple(nodes)


def leaves(nodes: tuple[Group | Param, ...]) -> list[Param]:
    """Every parameter under ``nodes``, depth first."""
    found: list[Param] = []
    for node in nodes:
        found.extend(leaves(node.children) if isinstance(node, Group) else [node])
    return found


def json_default(field: FieldInfo) -> Any:
    """The field's default as JSON data (aliases, plain types)."""
    value = field.get_default(call_default_factory=True, validated_data={})
    annotation: Any = field.annotation
    return TypeAdapter(annotation).dump_python(value, mode="json", by_alias=True)


def _default(path: str, field: FieldInfo) -> Any:
    if not field.is_required():
        return json_default(field)
    # A required value still needs a line in values.yaml; the schema's minLength makes
    # Helm reject the empty placeholder until the user sets it.
    if field.annotation is str:
        return ""
    raise ChartError(f"{path} is required but has no placeholder for values.yaml")
