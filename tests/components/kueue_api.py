"""A focused structural check of the Kueue objects trainstack writes (``kueue.x-k8s.io/v1beta2``).

Kueue's CRD schemas are not available offline (no package vendors them), so this is not
the upstream schema: it is written by hand from Kueue's v1beta2 API types
(``apis/kueue/v1beta2``: ResourceFlavorSpec, ClusterQueueSpec, LocalQueueSpec), covers
the fields trainstack emits and refuses any other, and adds the rules the CRDs enforce
with CEL (each flavor lists the covered resources in order; no borrowingLimit without a
cohort). Object metadata goes through the core ObjectMeta schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema

from tests.conformance import ConformanceError, validate_object

API_VERSION = "kueue.x-k8s.io/v1beta2"
_NAME = {
    "type": "string",
    "maxLength": 253,
    "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
}
_QUANTITY = {
    "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}],
    "pattern": r"^(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE])?$",
}
_EFFECT = {"enum": ["NoSchedule", "PreferNoSchedule", "NoExecute"]}


def _closed(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


_TOLERATION = _closed(
    {
        "key": {"type": "string"},
        "operator": {"enum": ["Equal", "Exists"]},
        "value": {"type": "string"},
        "effect": _EFFECT,
        "tolerationSeconds": {"type": "integer"},
    }
)
_SELECTOR = _closed(
    {
        "matchLabels": {"type": "object", "additionalProperties": {"type": "string"}},
        "matchExpressions": {"type": "array"},
    }
)
SPECS: dict[str, dict[str, Any]] = {
    "ResourceFlavor": _closed(
        {
            "nodeLabels": {
                "type": "object",
                "maxProperties": 8,
                "additionalProperties": {"type": "string"},
            },
            "nodeTaints": {
                "type": "array",
                "maxItems": 8,
                "items": _closed(
                    {"key": {"type": "string"}, "value": {"type": "string"}, "effect": _EFFECT},
                    ["key", "effect"],
                ),
            },
            "tolerations": {"type": "array", "maxItems": 8, "items": _TOLERATION},
        }
    ),
    "ClusterQueue": _closed(
        {
            "resourceGroups": {
                "type": "array",
                "maxItems": 16,
                "items": _closed(
                    {
                        "coveredResources": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 64,
                            "items": {"type": "string"},
                        },
                        "flavors": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 64,
                            "items": _closed(
                                {
                                    "name": _NAME,
                                    "resources": {
                                        "type": "array",
                                        "minItems": 1,
                                        "maxItems": 64,
                                        "items": _closed(
                                            {
                                                "name": {"type": "string"},
                                                "nominalQuota": _QUANTITY,
                                                "borrowingLimit": _QUANTITY,
                                                "lendingLimit": _QUANTITY,
                                            },
                                            ["name", "nominalQuota"],
                                        ),
                                    },
                                },
                                ["name", "resources"],
                            ),
                        },
                    },
                    ["coveredResources", "flavors"],
                ),
            },
            "cohortName": _NAME,
            "queueingStrategy": {"enum": ["StrictFIFO", "BestEffortFIFO"]},
            "namespaceSelector": _SELECTOR,
            "preemption": _closed(
                {
                    "reclaimWithinCohort": {"enum": ["Never", "LowerPriority", "Any"]},
                    "withinClusterQueue": {
                        "enum": ["Never", "LowerPriority", "LowerOrNewerEqualPriority"]
                    },
                }
            ),
        }
    ),
    "LocalQueue": _closed({"clusterQueue": _NAME}, ["clusterQueue"]),
}
CLUSTER_SCOPED = {"ResourceFlavor", "ClusterQueue"}


def validate_kueue_object(obj: Mapping[str, Any]) -> None:
    """Raise :class:`ConformanceError` when ``obj`` is not a valid object of the fields above."""
    kind = obj.get("kind")
    name = f"{kind} {obj.get('metadata', {}).get('name', '?')}"
    if obj.get("apiVersion") != API_VERSION or kind not in SPECS:
        raise ConformanceError(f"{name}: not a {API_VERSION} object this check knows")
    if set(obj) - {"apiVersion", "kind", "metadata", "spec"}:
        raise ConformanceError(f"{name}: unexpected top-level keys {sorted(obj)}")
    metadata = obj.get("metadata", {})
    if ("namespace" in metadata) == (kind in CLUSTER_SCOPED):
        raise ConformanceError(f"{name}: namespace set on a cluster-scoped kind or missing")
    # ObjectMeta and label syntax through the core schema (any core kind holds metadata).
    validate_object({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata})
    spec = obj.get("spec", {})
    errors = sorted(
        jsonschema.Draft7Validator(SPECS[str(kind)]).iter_errors(spec), key=lambda e: list(e.path)
    )
    if errors:
        raise ConformanceError(
            f"{name}: " + "; ".join(f"at {list(e.path)}: {e.message}" for e in errors)
        )
    if kind == "ClusterQueue":
        _cluster_queue_rules(name, spec)


def _cluster_queue_rules(name: str, spec: Mapping[str, Any]) -> None:
    for group in spec.get("resourceGroups", []):
        covered = group["coveredResources"]
        for flavor in group["flavors"]:
            listed = [resource["name"] for resource in flavor["resources"]]
            if listed != covered:
                raise ConformanceError(
                    f"{name}: flavor {flavor['name']} lists {listed}, not {covered} in order"
                )
            if "cohortName" not in spec and any(
                "borrowingLimit" in resource for resource in flavor["resources"]
            ):
                raise ConformanceError(f"{name}: borrowingLimit must be nil when cohort is empty")
