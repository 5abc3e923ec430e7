"""Render many releases of the training-job chart in a worker process.

A plan of many experiments spends seconds in Helm's renderer; started before the Pulumi
program runs, a second process renders them on the machine's other core meanwhile. The
module imports nothing but the renderer, so the worker starts quickly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.chart.render import render_training_job
from trainstack.core.errors import TrainstackError


@dataclass(frozen=True)
class RenderRequest:
    """One release to render: its name, namespace, chart directory and values."""

    release: str
    namespace: str
    chart_dir: str
    values_json: str
    """The values as canonical JSON (sorted keys): also the key results are found by."""

    @classmethod
    def of(
        cls, release: str, namespace: str, chart_dir: Path, values: Mapping[str, Any]
    ) -> RenderRequest:
        """A request for ``values`` (made canonical)."""
        return cls(release, namespace, str(chart_dir), json.dumps(values, sort_keys=True))


def render_all(
    requests: list[RenderRequest],
) -> dict[RenderRequest, list[dict[str, Any]] | None]:
    """Objects per request; ``None`` where rendering failed (the caller renders it again
    itself, so that the error is raised where it can be reported)."""
    results: dict[RenderRequest, list[dict[str, Any]] | None] = {}
    for request in requests:
        try:
            results[request] = render_training_job(
                json.loads(request.values_json),
                release=request.release,
                namespace=request.namespace,
                chart_dir=Path(request.chart_dir),
            )
        except TrainstackError:
            results[request] = None
    return results


def render_all_json(requests: list[RenderRequest]) -> dict[RenderRequest, str | None]:
    """:func:`render_all`, each release's objects as JSON text (a list).

    What a worker hands back to a plan: a tenth of the memory of the objects themselves
    (about 30 KB of text per release, against some 250 KB of dicts), decoded one release
    at a time where they are used, so that a plan of many experiments never holds them
    all at once beside their masked copies.
    """
    return {
        request: None if objects is None else json.dumps(objects)
        for request, objects in render_all(requests).items()
    }
