"""Environment variables: literal values, values read from the pod or from Secrets and
ConfigMaps (``valueFrom``), and whole Secrets or ConfigMaps (``envFrom``).

Credentials belong in Secrets: ``valueFrom.secretKeyRef`` and ``envFrom.secretRef`` name
them, so a token never appears in an experiment file, a plan or a diff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    StringConstraints,
    Tag,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from trainstack.core.base_model import StrictModel, constraint
from trainstack.training_job.types import ENV_NAME_PATTERN, DnsName, Quantity, raise_for_keys

# ConfigMap and Secret keys: what Kubernetes allows in a data key.
DATA_KEY_PATTERN = r"^[-._a-zA-Z0-9]+$"

DataKey = Annotated[str, StringConstraints(min_length=1, max_length=253, pattern=DATA_KEY_PATTERN)]


class FieldRef(StrictModel):
    """A field of the pod (``metadata.name``, ``status.podIP``, a label...)."""

    field_path: str = Field(
        min_length=1,
        description="Path of the field, e.g. metadata.name, status.podIP or "
        "metadata.labels['training.kubeflow.org/replica-index'].",
    )
    api_version: str | None = Field(
        default=None, min_length=1, description="Version of the field's schema; null: v1."
    )


class KeyRef(StrictModel):
    """One key of a Secret or ConfigMap in the job's namespace."""

    name: DnsName = Field(description="Name of the Secret or ConfigMap.")
    key: DataKey = Field(description="The key whose value is used.")
    optional: bool | None = Field(
        default=None, description="true: a missing object or key leaves the variable unset."
    )


class ResourceFieldRef(StrictModel):
    """A request or limit of a container of the pod (``limits.memory``...)."""

    resource: str = Field(
        min_length=1, description="e.g. limits.cpu, requests.memory, limits.nvidia.com/gpu."
    )
    container_name: str | None = Field(
        default=None, min_length=1, description="The container; null: this one."
    )
    divisor: Quantity | None = Field(
        default=None, description="Unit of the value, e.g. 1Mi; null: 1."
    )


_SOURCES = ("fieldRef", "secretKeyRef", "configMapKeyRef", "resourceFieldRef")


class ValueFrom(StrictModel):
    """Where the value comes from: exactly one of the four."""

    model_config = {"json_schema_extra": {"minProperties": 1, "maxProperties": 1}}

    field_ref: FieldRef | None = Field(default=None, description="A field of the pod.")
    secret_key_ref: KeyRef | None = Field(default=None, description="A key of a Secret.")
    config_map_key_ref: KeyRef | None = Field(default=None, description="A key of a ConfigMap.")
    resource_field_ref: ResourceFieldRef | None = Field(
        default=None, description="A request or limit of a container."
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> ValueFrom:
        given = [
            key
            for key, value in zip(
                _SOURCES,
                (
                    self.field_ref,
                    self.secret_key_ref,
                    self.config_map_key_ref,
                    self.resource_field_ref,
                ),
                strict=True,
            )
            if value is not None
        ]
        if len(given) != 1:
            raise constraint("", given, f"exactly one of {', '.join(_SOURCES)}")
        return self


class EnvSource(StrictModel):
    """A variable whose value is read when the pod starts (``{valueFrom: {...}}``)."""

    value_from: ValueFrom = Field(description="Where the value comes from.")


def _env_kind(value: Any) -> str:
    return "source" if isinstance(value, dict | BaseModel) else "literal"


EnvValue = Annotated[
    Annotated[str, Tag("literal")] | Annotated[EnvSource, Tag("source")],
    Discriminator(_env_kind),
]
"""A literal string, or ``{valueFrom: ...}`` (told apart by their shape, so that an error
names the key, not a union member)."""


def _check_env_names(values: dict[str, Any]) -> dict[str, Any]:
    raise_for_keys(
        [
            (key, key, f"an environment variable name matching {ENV_NAME_PATTERN}")
            for key in values
            if re.fullmatch(ENV_NAME_PATTERN, key) is None
        ]
    )
    return values


@dataclass(frozen=True)
class _KeysMatching:
    """JSON schema metadata: the map's keys must match ``pattern``."""

    pattern: str

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        value = handler(schema)
        value["propertyNames"] = {"pattern": self.pattern}
        return value


EnvMap = Annotated[
    dict[str, EnvValue], AfterValidator(_check_env_names), _KeysMatching(ENV_NAME_PATTERN)
]
"""Environment variables by name: a string (quote numbers in YAML) or ``{valueFrom: ...}``."""


class NameRef(StrictModel):
    """A whole Secret or ConfigMap of the job's namespace."""

    name: DnsName = Field(description="Name of the Secret or ConfigMap.")
    optional: bool | None = Field(
        default=None, description="true: a missing object is ignored instead of failing."
    )


class EnvFrom(StrictModel):
    """Every key of a Secret or ConfigMap as a variable: exactly one of secretRef and
    configMapRef."""

    model_config = {
        "json_schema_extra": {
            "oneOf": [{"required": ["secretRef"]}, {"required": ["configMapRef"]}]
        }
    }

    prefix: str | None = Field(
        default=None,
        pattern=ENV_NAME_PATTERN,
        description="Put before every key to make the variable names.",
    )
    secret_ref: NameRef | None = Field(default=None, description="A Secret.")
    config_map_ref: NameRef | None = Field(default=None, description="A ConfigMap.")

    @model_validator(mode="after")
    def _exactly_one(self) -> EnvFrom:
        if (self.secret_ref is None) == (self.config_map_ref is None):
            given = [
                key
                for key, value in (
                    ("secretRef", self.secret_ref),
                    ("configMapRef", self.config_map_ref),
                )
                if value is not None
            ]
            raise constraint("", given, "exactly one of secretRef, configMapRef")
        return self
