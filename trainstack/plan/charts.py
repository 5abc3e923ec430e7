"""Expand releases of the project's own chart into the objects Helm would create."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from trainstack.chart.render import render_training_job
from trainstack.plan.masking import Masker
from trainstack.plan.model import PlannedResource, RenderedObject

HELM_RELEASE = "kubernetes:helm.sh/v3:Release"


def is_local_chart(release: PlannedResource) -> bool:
    """A release of a chart in the project (a relative path), which can be rendered offline."""
    chart = str(release.inputs.get("chart", ""))
    return chart.startswith(("./", "../")) or chart.startswith("charts/")


def expand_local_releases(
    project_root: Path, resources: Iterable[PlannedResource], digest_key: bytes | None = None
) -> list[RenderedObject]:
    """Every object of every local-chart release, sorted by (kind, namespace, name).

    Objects are masked like resources: Secret data never reaches a plan.
    """
    objects: list[RenderedObject] = []
    for release in resources:
        if release.type != HELM_RELEASE or not is_local_chart(release):
            continue
        inputs = release.inputs
        namespace = str(inputs.get("namespace") or "default")
        rendered = render_training_job(
            inputs.get("values") or {},
            release=str(inputs["name"]),
            namespace=namespace,
            chart_dir=(project_root / str(inputs["chart"])).resolve(),
        )
        for item in rendered:
            # Helm installs namespaced objects without a namespace into the release's.
            metadata = item.setdefault("metadata", {})
            metadata.setdefault("namespace", namespace)
            masker = Masker(digest_key)
            objects.append(
                RenderedObject(
                    release=release.urn,
                    object=masker.mask(item),
                    secret_digests=masker.digests,
                )
            )
    return sorted(objects, key=lambda rendered: rendered.key)
