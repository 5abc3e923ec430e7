"""Render many releases of the training-job chart in a worker process.

A plan of many experiments spends seconds in Helm's renderer; started before the Pulumi
program runs, a second process renders them on the machine's other core meanwhile. The
module imports nothing but the renderer, so the worker starts quickly.
"""

from __future__ import annotations

import json
import zlib
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
    return {request: _render(request) for request in requests}


def _render(request: RenderRequest) -> list[dict[str, Any]] | None:
    try:
        return render_training_job(
            json.loads(request.values_json),
            release=request.release,
            namespace=request.namespace,
            chart_dir=Path(request.chart_dir),
        )
    except TrainstackError:
        return None


def pack(objects: list[dict[str, Any]]) -> bytes:
    """A release's objects as a worker hands them back: JSON text, compressed (zlib).

    About 6 KB per release against 15 to 30 KB of text (some 250 KB as dicts): a plan of
    1,000 experiments holds every release's render from the moment the worker returns it
    until the program's registrations are done, and decodes them one at a time (:func:`unpack`)
    where they are used, so that it never holds them all at once beside their masked copies.
    Level 1: the fastest, and it still makes the text five times smaller.
    """
    return zlib.compress(json.dumps(objects).encode("utf-8"), 1)


def unpack(packed: bytes) -> list[dict[str, Any]]:
    """The objects :func:`pack` packed."""
    objects: list[dict[str, Any]] = json.loads(zlib.decompress(packed))
    return objects


def render_all_packed(requests: list[RenderRequest]) -> list[bytes | None]:
    """:func:`render_all`, each release's objects packed (:func:`pack`), in the order of
    ``requests`` (a worker hands back only the answers: the caller has the requests)."""
    return [None if objects is None else pack(objects) for objects in map(_render, requests)]
