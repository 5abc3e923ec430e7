"""Validate rendered Kubernetes objects the way an API server would, offline.

- Custom resources (``kubeflow.org`` jobs...) against the upstream CRD schemas in the
  directory named by ``TRAINSTACK_CRD_DIR`` (JSON schema files, or CRD documents), made
  strict first: the API server silently prunes unknown fields, so a misspelt field would
  otherwise pass here and vanish in the cluster.
- Core objects with kubernetes-validate (strict schemas of Kubernetes itself).
- For both: object metadata (ObjectMeta schema, label syntax) and every embedded pod
  template (core PodTemplateSpec schema), which CRD schemas only describe loosely.

Use :func:`validate_objects` for a list (it fails when given nothing) or
:func:`validate_object` for one; both raise :class:`ConformanceError` with the object,
the field path and the reason.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest

CRD_DIR_ENV = "TRAINSTACK_CRD_DIR"
KUBERNETES_VERSION = "1.30.0"
SKIP_REASON = (
    f"{CRD_DIR_ENV} is not set: point it at ../shared/reference/crds to run the CRD "
    "conformance tests"
)
_LABEL_KEY = re.compile(
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
)
_LABEL_VALUE = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$")


class ConformanceError(AssertionError):
    """An object the API server would reject (or silently change)."""


def crd_dir() -> Path:
    """The CRD schema directory from the environment; skips the calling test when unset."""
    value = os.environ.get(CRD_DIR_ENV)
    if not value:
        pytest.skip(SKIP_REASON)
    directory = Path(value)
    if not directory.is_dir():
        raise ConformanceError(f"{CRD_DIR_ENV}={value} is not a directory")
    return directory


def validate_objects(objects: Iterable[Mapping[str, Any]], schemas: Path | None = None) -> int:
    """Validate every object; return how many. Fails when there is nothing to validate."""
    count = 0
    for obj in objects:
        validate_object(obj, schemas)
        count += 1
    if count == 0:
        raise ConformanceError("validated nothing: no objects were given (did rendering fail?)")
    return count


def validate_object(obj: Mapping[str, Any], schemas: Path | None = None) -> None:
    """Validate one object; custom resources need ``schemas`` (a CRD schema directory)."""
    api_version, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    name = f"{kind or '?'} {obj.get('metadata', {}).get('name', '?')}"
    if not api_version or not kind:
        raise ConformanceError(f"{name}: apiVersion and kind are required")
    if _is_core(api_version):
        _validate_core(obj, name)
    else:
        if schemas is None:
            raise ConformanceError(f"{name}: {api_version} is a custom resource: pass a CRD dir")
        schema = CrdSchemas.load(schemas).schema_for(api_version, kind)
        _report(name, jsonschema.Draft7Validator(schema).iter_errors(dict(obj)))
        _validate_metadata(obj.get("metadata", {}), f"{name} metadata")
        for path, template in _pod_templates(obj):
            _validate_pod_template(template, f"{name} {path}")


def _is_core(api_version: str) -> bool:
    group = api_version.rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")


def _validate_core(obj: Mapping[str, Any], name: str) -> None:
    try:
        kubernetes_validate.validate(dict(obj), KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as err:
        raise ConformanceError(f"{name}: {_describe(err)}") from None
    except kubernetes_validate.SchemaNotFoundError as err:
        raise ConformanceError(f"{name}: {err.message}") from None
    for labels_path, labels in _labels(obj):
        _check_labels(labels, f"{name} {labels_path}")


def _validate_metadata(metadata: Any, name: str) -> None:
    """ObjectMeta through a ConfigMap, the smallest core object that has nothing else."""
    holder = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata}
    try:
        kubernetes_validate.validate(holder, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as err:
        raise ConformanceError(f"{name}: {_describe(err)}") from None
    _check_labels(metadata.get("labels") or {}, name)


def _validate_pod_template(template: Mapping[str, Any], name: str) -> None:
    holder = {
        "apiVersion": "v1",
        "kind": "PodTemplate",
        "metadata": {"name": "conformance"},
        "template": template,
    }
    try:
        kubernetes_validate.validate(holder, KUBERNETES_VERSION, strict=True)
    except kubernetes_validate.ValidationError as err:
        raise ConformanceError(f"{name}: {_describe(err)}") from None
    _check_labels(template.get("metadata", {}).get("labels") or {}, name)


def _check_labels(labels: Mapping[str, Any], name: str) -> None:
    for key, value in labels.items():
        if _LABEL_KEY.match(key) is None:
            raise ConformanceError(f"{name}: invalid label key {key!r}")
        if not isinstance(value, str) or _LABEL_VALUE.match(value) is None:
            raise ConformanceError(f"{name}: invalid value {value!r} of label {key!r}")


def _labels(obj: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every ``metadata.labels`` map in an object, with its path."""
    if isinstance(obj, Mapping):
        metadata = obj.get("metadata")
        if isinstance(metadata, Mapping) and isinstance(metadata.get("labels"), Mapping):
            yield f"{path}metadata.labels", metadata["labels"]
        for key, value in obj.items():
            yield from _labels(value, f"{path}{key}.")
    elif isinstance(obj, list):
        for index, item in enumerate(obj):
            yield from _labels(item, f"{path}[{index}].")


def _pod_templates(obj: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every pod template (a ``template`` with ``spec.containers``) in an object."""
    if isinstance(obj, Mapping):
        for key, value in obj.items():
            here = f"{path}.{key}" if path else str(key)
            spec = value.get("spec") if isinstance(value, Mapping) else None
            if key == "template" and isinstance(spec, Mapping) and "containers" in spec:
                yield here, value
            else:
                yield from _pod_templates(value, here)


def _report(name: str, errors: Iterator[jsonschema.ValidationError]) -> None:
    found = sorted(errors, key=lambda error: list(error.absolute_path))
    if found:
        lines = [f"{name}: {len(found)} schema error(s):"]
        lines += [f"  - {_describe(error)}" for error in found]
        raise ConformanceError("\n".join(lines))


def _describe(error: jsonschema.ValidationError) -> str:
    path = ".".join(str(part) for part in error.absolute_path) or "(root)"
    return f"at {path}: {error.message}"


class CrdSchemas:
    """The JSON schemas of custom resources in one directory, by apiVersion and kind."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._by_key: dict[tuple[str, str], list[tuple[Path, dict[str, Any]]]] = {}
        for path in sorted(directory.glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            for key, schema in _schemas_in(document):
                self._by_key.setdefault(key, []).append((path, schema))

    @staticmethod
    @functools.lru_cache(maxsize=4)
    def load(directory: Path) -> CrdSchemas:
        """The schemas of ``directory``, read once per process."""
        return CrdSchemas(directory)

    def schema_for(self, api_version: str, kind: str) -> dict[str, Any]:
        """The strict schema of ``kind`` in ``api_version``.

        Several files may describe one version (an upstream CRD and a vendor fork); the
        upstream file is the one named ``<kind>-<version>.json``.
        """
        candidates = self._by_key.get((api_version, kind), [])
        if not candidates:
            known = ", ".join(f"{k} {v}" for v, k in sorted(self._by_key))
            raise ConformanceError(
                f"no schema for {kind} {api_version} in {self.directory} (has: {known})"
            )
        version = api_version.rpartition("/")[2]
        canonical = f"{kind.lower()}-{version}.json"
        chosen = [schema for path, schema in candidates if path.name == canonical]
        if not chosen and len(candidates) == 1:
            chosen = [candidates[0][1]]
        if len(chosen) != 1:
            files = ", ".join(path.name for path, _ in candidates)
            raise ConformanceError(
                f"{kind} {api_version}: several schemas ({files}), none {canonical}"
            )
        return _closed(chosen[0])


def _schemas_in(document: Any) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    """(apiVersion, kind) and schema: from a CRD document or a JSON schema file."""
    if not isinstance(document, dict):  # e.g. SOURCES.json, the list of where files came from
        return
    if document.get("kind") == "CustomResourceDefinition":
        spec = document["spec"]
        for version in spec.get("versions", []):
            if version.get("served"):
                key = (f"{spec['group']}/{version['name']}", spec["names"]["kind"])
                yield key, version["schema"]["openAPIV3Schema"]
        return
    kind, _, api_version = str(document.get("title", "")).partition(" ")
    if kind and "/" in api_version:
        yield (api_version, kind), document


def _closed(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy where every object with listed properties rejects unknown ones."""
    closed = copy.deepcopy(schema)

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

    close(closed)
    return closed
