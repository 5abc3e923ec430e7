"""The Jobs that fill a dataset (or wait for it), found in a plan by their digest.

A populate Job and the Job waiting for it carry the populate spec's digest in the
annotation :data:`~trainstack.config.populate.POPULATE_DIGEST`: the fairness report
pairs them across two clusters, the data-at-risk section reports a changed one.
"""

from __future__ import annotations

from typing import Any

from trainstack.config.populate import POPULATE_DIGEST
from trainstack.diff.model import PlanObject, Snapshot


def populate_digest(side: PlanObject) -> str | None:
    """The populate digest a Job of a dataset's populate (or its wait) carries, or the
    ConfigMap of the populate Job's inputs (on the filling cluster only)."""
    return _digest(side.document, ("Job", "ConfigMap"))


def job_digest(document: Any) -> str | None:
    """The digest of a Job document (an object, or a resource's ``{inputs}``)."""
    return _digest(document, ("Job",))


def _digest(document: Any, kinds: tuple[str, ...]) -> str | None:
    if not isinstance(document, dict):
        return None
    document = document.get("inputs", document)
    metadata = document.get("metadata") if isinstance(document, dict) else None
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    if document.get("kind") not in kinds or not isinstance(annotations, dict):
        return None
    digest = annotations.get(POPULATE_DIGEST)
    return digest if isinstance(digest, str) else None


def populate_digests(snapshot: Snapshot) -> set[str]:
    """Every populate digest of a plan's Jobs."""
    found = {populate_digest(side) for side in snapshot.objects.values()}
    return {digest for digest in found if digest is not None}
