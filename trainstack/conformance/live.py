"""Before any experiment is created by a real ``pulumi preview``/``up``: check each job
against the CRD the cluster itself serves (the operators there may differ from what the
stack says, e.g. installed by hand or upgraded), unknown fields refused.

Nothing of this runs in the offline plan, which checks against the catalog and the CRD
directory instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import jsonschema

from trainstack.conformance.crds import closed
from trainstack.conformance.schema_check import OFFLINE, local_refs_only
from trainstack.conformance.validate import Violation, object_violations
from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError


def crd_name(crd: Mapping[str, Any]) -> Any:
    return (crd.get("metadata") or {}).get("name", "?")


class ClusterCrds:
    """Validators built from CRDs read from a cluster, by (apiVersion, kind)."""

    def __init__(self, crds: Iterable[Mapping[str, Any]]) -> None:
        self._validators: dict[tuple[str, str], jsonschema.protocols.Validator] = {}
        for crd in crds:
            spec = crd.get("spec") or {}
            group, kind = spec.get("group"), (spec.get("names") or {}).get("kind")
            for version in spec.get("versions") or []:
                schema = (version.get("schema") or {}).get("openAPIV3Schema")
                if version.get("served") and schema:
                    key = (f"{group}/{version.get('name')}", str(kind))
                    source = f"the cluster's CRD {printable(str(crd_name(crd)), 120)}"
                    local_refs_only(schema, source, ClusterError)
                    self._validators[key] = jsonschema.Draft7Validator(
                        closed(schema), registry=OFFLINE
                    )

    def violations(self, obj: Mapping[str, Any]) -> list[Violation]:
        """What the cluster's CRD says is wrong with ``obj`` (``[]`` when it conforms)."""
        key = (str(obj.get("apiVersion")), str(obj.get("kind")))
        name = f"{key[1]} {(obj.get('metadata') or {}).get('name', '?')}"
        if key not in self._validators:
            return [Violation(name, "(root)", f"the cluster does not serve {key[1]} {key[0]}")]
        found = [
            Violation(
                name,
                ".".join(str(part) for part in error.absolute_path) or "(root)",
                f"{error.validator}: {error.message[:200]}",
            )
            for error in self._validators[key].iter_errors(dict(obj))
        ]
        # metadata, pod templates and labels against Kubernetes' own schemas, as offline
        return found + object_violations(obj, None, {})


def check_on_cluster(
    objects: Iterable[Mapping[str, Any]], crds: Mapping[str, Mapping[str, Any] | None], where: str
) -> None:
    """Raise :class:`ClusterError` listing every violation of ``objects`` against ``crds``
    (CRD name -> the cluster's CRD, ``None`` when the cluster does not have it)."""
    missing = sorted(name for name, crd in crds.items() if crd is None)
    if missing:
        raise ClusterError(
            f"the cluster ({where}) has no CustomResourceDefinition {', '.join(missing)}: the "
            "operators the stack installs did not create it; no experiment was created"
        )
    schemas = ClusterCrds(crd for crd in crds.values() if crd is not None)
    found = sorted(v for obj in objects for v in schemas.violations(obj))
    if found:
        lines = [
            f"{len(found)} field(s) of the experiments would be refused or dropped by the "
            f"cluster's own CRDs ({where}); no experiment was created:"
        ]
        lines += [f"  - {violation}" for violation in found[:40]]
        raise ClusterError("\n".join(lines))
