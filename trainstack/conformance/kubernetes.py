"""Kubernetes' own object schemas (strict: unknown fields refused), compiled once.

The schemas are the ones kubernetes-validate ships (generated from the Kubernetes OpenAPI
of each release). Its ``validate()`` re-reads the large definitions file on every call;
a plan validates hundreds of objects, so each kind's validator is built once per process.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

import jsonschema
import jsonschema_rs
from referencing import Registry, Resource

from trainstack.conformance.schema_check import OFFLINE, SchemaCheck

KUBERNETES_VERSION = "1.30.0"
"""The Kubernetes release whose schemas objects are checked against (ACK and upstream
clusters of this age serve every field the program and the chart write)."""

_SCHEMA_DIR = f"kubernetes-json-schema/v{KUBERNETES_VERSION}-local-strict"


def is_core(api_version: str) -> bool:
    """Whether ``api_version`` is Kubernetes' own (``v1``, ``apps/v1``, ``*.k8s.io/...``)."""
    group = api_version.rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


@functools.lru_cache(maxsize=1)
def _definitions() -> Resource[Any]:
    return Resource.from_contents(_read(f"{_SCHEMA_DIR}/_definitions.json"))


@functools.lru_cache(maxsize=64)
def core_validator(api_version: str, kind: str) -> SchemaCheck | None:
    """The strict check of a core kind; ``None`` when Kubernetes has no such kind."""
    # rbac.authorization.k8s.io/v1 -> rbac-v1, as the schema files are named
    group_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    try:
        schema = _read(f"{_SCHEMA_DIR}/{kind.lower()}-{group_version}.json")
    except FileNotFoundError:
        return None
    registry: Registry[Any] = Resource.from_contents(schema) @ OFFLINE
    definitions = _definitions()
    registry = definitions @ registry
    return SchemaCheck.of(
        jsonschema.Draft202012Validator(schema, registry=registry),
        jsonschema_rs.Draft202012Validator,
        {definitions.contents["$id"]: definitions.contents},
    )


def _read(name: str) -> Any:
    text = resources.files("kubernetes_validate").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)
