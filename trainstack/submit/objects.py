"""The objects of a run: where each lives in the API, and how they are shown.

The chart renders a job of one of the registered frameworks and, with
``tensorboard.enabled``, a Deployment and a Service (``templates/tensorboard.yaml``);
each is found in the API by its kind's resource (the framework registry's ``plural``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from trainstack.core.errors import ChartError
from trainstack.core.yaml.io import canonical_yaml
from trainstack.live.writes import ObjectRef
from trainstack.training_job.frameworks import FRAMEWORKS

COMPANION_KINDS: tuple[tuple[str, str, str], ...] = (
    ("apps/v1", "Deployment", "deployments"),
    ("v1", "Service", "services"),
)
"""(apiVersion, kind, resource) of what the chart renders beside a job (TensorBoard)."""


def object_ref(document: Mapping[str, Any]) -> ObjectRef:
    """Where ``document`` (a rendered object) lives in the API."""
    api_version, kind = str(document.get("apiVersion")), str(document.get("kind"))
    metadata = document.get("metadata") or {}
    plural = next(
        (
            spec.plural
            for spec in FRAMEWORKS
            if spec.kind == kind and api_version in spec.api_versions
        ),
        None,
    ) or next((p for v, k, p in COMPANION_KINDS if (v, k) == (api_version, kind)), None)
    if plural is None:
        raise ChartError(
            f"the chart rendered a {kind} {api_version}, which trainstack cannot submit"
        )
    return ObjectRef(
        api_version, kind, plural, str(metadata.get("namespace")), str(metadata.get("name"))
    )


def documents_text(objects: Iterable[tuple[str, Mapping[str, Any]]]) -> str:
    """YAML documents, each after a comment line (``title``), keys sorted: the same
    objects always give the same text, as the plan's object files."""
    return "".join(f"---\n# {title}\n{canonical_yaml(document)}" for title, document in objects)
