"""Check every planned object against the schema of the API it targets, like kubeconform.

- Kubernetes' own kinds: always, against Kubernetes' strict schemas.
- Custom resources (jobs, Kueue objects): against the CRD schema of the operator the
  stack installs when a schema directory is given (``--crd-dir`` / ``TRAINSTACK_CRD_DIR``),
  with unknown fields refused; otherwise against the catalog's facts only (the plan-time
  operator checks), and the plan says so.
- In both: object metadata and every pod template embedded in a custom resource, which
  CRD schemas describe loosely or not at all, against Kubernetes' own schemas.

Each problem names the object, the JSON path and the schema's rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from trainstack.conformance.crds import CrdSchemas
from trainstack.conformance.kubernetes import core_validator, is_core
from trainstack.conformance.schema_check import SchemaCheck

_LABEL_KEY = re.compile(
    r"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"
)
_LABEL_VALUE = re.compile(r"([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?")


@dataclass(frozen=True, order=True)
class Violation:
    """One way an object would be refused (or silently changed) by the API server."""

    name: str
    """``Kind namespace/name`` of the object."""
    path: str
    """JSON path inside the object."""
    rule: str
    """The schema's rule (``additionalProperties``, ``type``...) and its message."""

    def __str__(self) -> str:
        return f"{self.name}: at {self.path}: {self.rule}"


SchemaFiles = Mapping[tuple[str, str], str]
"""(apiVersion, kind) -> schema file name in the CRD directory (from the catalog)."""


def violations(
    objects: Iterable[Mapping[str, Any]], crds: CrdSchemas | None, files: SchemaFiles
) -> list[Violation]:
    """Every violation of every object, sorted."""
    found: list[Violation] = []
    for obj in objects:
        found += object_violations(obj, crds, files)
    return sorted(found)


def object_violations(
    obj: Mapping[str, Any], crds: CrdSchemas | None, files: SchemaFiles
) -> list[Violation]:
    """The violations of one object (an empty list when it conforms)."""
    api_version, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), Mapping) else {}
    assert isinstance(metadata, Mapping)
    where = "/".join(
        str(part) for part in (metadata.get("namespace"), metadata.get("name")) if part
    )
    name = f"{kind or '?'} {where or '?'}"
    if is_core(api_version):
        check = core_validator(api_version, kind)
        if check is None:
            return [Violation(name, "(root)", f"Kubernetes has no kind {kind} in {api_version}")]
        return _errors(name, check, obj) + _label_violations(name, obj)
    found: list[Violation] = []
    file_name = files.get((api_version, kind))
    if crds is not None:
        if file_name is None:
            found.append(
                Violation(name, "(root)", f"no operator of the stack serves {kind} {api_version}")
            )
        else:
            found += _errors(name, crds.validator(file_name, api_version, kind), obj)
    metadata_holder = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": dict(metadata)}
    config_map = core_validator("v1", "ConfigMap")
    assert config_map is not None
    found += _errors(name, config_map, metadata_holder)
    pod_template = core_validator("v1", "PodTemplate")
    assert pod_template is not None
    for path, template in pod_templates(obj):
        holder = {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "t"}}
        found += [
            Violation(v.name, path + v.path.removeprefix("template"), v.rule)
            for v in _errors(name, pod_template, {**holder, "template": dict(template)})
        ]
    return found + _label_violations(name, obj)


def _errors(name: str, check: SchemaCheck, obj: Mapping[str, Any]) -> list[Violation]:
    return [
        Violation(
            name,
            ".".join(str(part) for part in error.absolute_path) or "(root)",
            f"{error.validator}: {_short(error.message)}",
        )
        for error in check.errors(dict(obj))
    ]


def _short(message: str) -> str:
    return message if len(message) <= 200 else message[:197] + "..."


def _label_violations(name: str, obj: Any) -> list[Violation]:
    found = []
    for path, labels in _labels(obj):
        for key, value in labels.items():
            if _LABEL_KEY.fullmatch(str(key)) is None:
                found.append(Violation(name, path, f"label syntax: invalid label key {key!r}"))
            elif not isinstance(value, str) or _LABEL_VALUE.fullmatch(value) is None:
                found.append(
                    Violation(name, path, f"label syntax: invalid value {value!r} of label {key!r}")
                )
    return found


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
            yield from _labels(item, f"{path}{index}.")


def pod_templates(obj: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every pod template (a ``template`` with ``spec.containers``) in an object."""
    if isinstance(obj, Mapping):
        for key, value in obj.items():
            here = f"{path}.{key}" if path else str(key)
            spec = value.get("spec") if isinstance(value, Mapping) else None
            if key == "template" and isinstance(spec, Mapping) and "containers" in spec:
                yield here, value
            else:
                yield from pod_templates(value, here)
