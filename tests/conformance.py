"""Validate objects in tests the way the plan does (``trainstack.conformance``).

Custom resources are checked against the upstream CRD schemas in the directory named by
``TRAINSTACK_CRD_DIR`` (the upstream operator's file for each kind: what the training-job
chart renders by default); tests that need them skip, saying why, when it is unset.

Use :func:`validate_objects` for a list (it fails when given nothing) or
:func:`validate_object` for one; both raise :class:`ConformanceError` listing the object,
the field path and the rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from trainstack.conformance import CrdSchemas, object_violations
from trainstack.conformance.kubernetes import is_core
from trainstack.operators.registry import families
from trainstack.plan.crd_dir import CRD_DIR_ENV

SKIP_REASON = (
    f"{CRD_DIR_ENV} is not set: point it at ../shared/reference/crds to run the CRD "
    "conformance tests"
)


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


def upstream_schema_files() -> dict[tuple[str, str], str]:
    """(apiVersion, kind) -> schema file of the upstream operators of the catalog."""
    files: dict[tuple[str, str], str] = {}
    for family in families():
        for release in family.releases.values():
            for key, name in release.schemas.items():
                if not name.endswith("-arena.json"):  # Arena's forks are not the default
                    files[key] = name
    return files


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
    if not api_version or not kind:
        raise ConformanceError(f"{kind or '?'}: apiVersion and kind are required")
    files = upstream_schema_files()
    if not is_core(api_version) and schemas is None:
        raise ConformanceError(f"{kind}: {api_version} is a custom resource: pass a CRD dir")
    found = object_violations(obj, None if schemas is None else CrdSchemas(schemas), files)
    if found:
        lines = [f"{found[0].name}: {len(found)} schema error(s):"]
        lines += [f"  - at {v.path}: {v.rule}" for v in found]
        raise ConformanceError("\n".join(lines))
