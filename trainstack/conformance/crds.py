"""Custom-resource schemas from a CRD schema directory, made strict.

The directory has the layout of the reference ``crds/`` directory: JSON schema files
titled ``<Kind> <group>/<version>`` (or whole CRD documents), one file per operator's
API (e.g. ``tfjob-v1.json`` upstream, ``tfjob-v1-arena.json`` for Arena's fork). Which
file an object is checked against comes from the catalog entry of the operator the stack
installs. The API server prunes fields a structural schema does not declare, silently;
so every object with listed properties is closed here (unknown fields are errors).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from trainstack.conformance.schema_check import OFFLINE, SchemaCheck, local_refs_only
from trainstack.core.errors import PlanError


class CrdSchemas:
    """The schema files of one directory, read on first use."""

    def __init__(self, directory: Path) -> None:
        if not directory.is_dir():
            raise PlanError(f"CRD schema directory {directory} does not exist")
        self.directory = directory
        self._validators: dict[tuple[str, str, str], SchemaCheck] = {}

    def validator(self, file_name: str, api_version: str, kind: str) -> SchemaCheck:
        """The strict check of ``kind`` from ``file_name`` of the directory (built once)."""
        key = (file_name, api_version, kind)
        if key not in self._validators:
            self._validators[key] = self._build(file_name, api_version, kind)
        return self._validators[key]

    def _build(self, file_name: str, api_version: str, kind: str) -> SchemaCheck:
        path = self.directory / file_name
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise PlanError(f"CRD schema {path}: {error}") from None
        schema = _schema_in(document, api_version, kind)
        if schema is None:
            raise PlanError(f"CRD schema {path} does not describe {kind} {api_version}")
        local_refs_only(schema, f"CRD schema {path}", PlanError)
        return SchemaCheck.of(
            jsonschema.Draft7Validator(closed(schema), registry=OFFLINE),
            jsonschema_rs.Draft7Validator,
        )


def _schema_in(document: Any, api_version: str, kind: str) -> dict[str, Any] | None:
    """The schema of (apiVersion, kind): from a CRD document or a titled JSON schema."""
    if not isinstance(document, dict):
        return None
    if document.get("kind") == "CustomResourceDefinition":
        spec = document.get("spec") or {}
        for version in spec.get("versions", []):
            if (
                f"{spec.get('group')}/{version.get('name')}" == api_version
                and spec.get("names", {}).get("kind") == kind
            ):
                return dict(version["schema"]["openAPIV3Schema"])
        return None
    if str(document.get("title", "")) == f"{kind} {api_version}":
        return document
    return None


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy where every object with listed properties rejects unknown ones."""
    result = copy.deepcopy(schema)

    def close(node: Any) -> None:
        if isinstance(node, dict):
            if (
                "properties" in node
                and "additionalProperties" not in node
                and not node.get("x-kubernetes-preserve-unknown-fields")
            ):
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for item in node:
                close(item)

    close(result)
    return result
