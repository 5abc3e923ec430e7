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
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

from trainstack.conformance.schema_check import OFFLINE, SchemaCheck, local_refs_only
from trainstack.core.errors import PlanError
from trainstack.core.files import open_regular, read_at_most
from trainstack.core.json_depth import ALLOWED_DEPTH, TOO_DEEP, TOO_MANY_DIGITS, raw_too_deep
from trainstack.core.limits import MAX_CRD_FILE_BYTES

_BUILT: dict[tuple[bytes, str, str], SchemaCheck] = {}
"""Strict checks already built in this process, by (SHA-256 of the schema file's bytes,
apiVersion, kind): building one (a deep copy of the schema, two validators compiled) is
most of a check, and a process that plans several stacks (``diff``, ``plan`` of a fleet,
the tests) reads the same files each time. A file whose bytes changed is another key."""
_BUILT_LIMIT = 64
"""Checks kept at most (oldest dropped first): the reference directory has about 20."""


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
        data = _read_bytes(path)
        key = (hashlib.sha256(data).digest(), api_version, kind)
        built = _BUILT.get(key)
        if built is None:
            built = _built(path, _decode(path, data), api_version, kind)
            if len(_BUILT) >= _BUILT_LIMIT:
                del _BUILT[next(iter(_BUILT))]
            _BUILT[key] = built
        return built


def _built(path: Path, document: Any, api_version: str, kind: str) -> SchemaCheck:
    """The strict check of ``kind`` in ``document``, the contents of ``path``."""
    try:
        schema = _schema_in(document, api_version, kind)
    except (AttributeError, KeyError, TypeError) as error:
        raise PlanError(
            f"CRD schema {path}: not a CustomResourceDefinition of the expected shape "
            f"({type(error).__name__}: spec.versions[].schema.openAPIV3Schema)"
        ) from None
    if schema is None:
        raise PlanError(f"CRD schema {path} does not describe {kind} {api_version}")
    local_refs_only(schema, f"CRD schema {path}", PlanError)
    return SchemaCheck.of(
        jsonschema.Draft7Validator(closed(schema), registry=OFFLINE),
        jsonschema_rs.Draft7Validator,
    )


def _read_bytes(path: Path) -> bytes:
    """The bytes of ``path``: a regular file (a link to ``/dev/zero`` or a FIFO is never
    read), at most :data:`MAX_CRD_FILE_BYTES`."""
    try:
        descriptor = open_regular(path, follow_links=True)
        try:
            data = read_at_most(descriptor, MAX_CRD_FILE_BYTES + 1)
        finally:
            os.close(descriptor)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise PlanError(f"CRD schema {path}: {reason}; allowed: a regular file") from None
    if len(data) > MAX_CRD_FILE_BYTES:
        raise PlanError(f"CRD schema {path}: larger than {MAX_CRD_FILE_BYTES} bytes (16 MiB)")
    return data


def _decode(path: Path, data: bytes) -> Any:
    """The JSON document ``data`` read from ``path``: UTF-8, nested at most
    :data:`MAX_JSON_DEPTH` (checked on the bytes, before the decoder recurses)."""
    if raw_too_deep(data):
        raise PlanError(f"CRD schema {path}: {TOO_DEEP}; allowed: {ALLOWED_DEPTH}")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise PlanError(f"CRD schema {path}: byte {error.start} is not UTF-8") from None
    except RecursionError:
        raise PlanError(f"CRD schema {path}: {TOO_DEEP}; allowed: {ALLOWED_DEPTH}") from None
    except ValueError as error:  # JSONDecodeError, or an integer of too many digits
        found = error.msg if isinstance(error, json.JSONDecodeError) else TOO_MANY_DIGITS
        raise PlanError(f"CRD schema {path}: not JSON ({found})") from None


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
