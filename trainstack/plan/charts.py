"""Expand releases of the project's own chart into the objects Helm would create."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from trainstack.chart.batch import RenderRequest, render_all_packed, unpack
from trainstack.chart.render import render_training_job
from trainstack.console.lifetime import tune_garbage_collector
from trainstack.plan.masking import Masker
from trainstack.plan.model import PlannedResource, RenderedObject

_Renders = dict[RenderRequest, bytes | None]
"""Each release's objects packed (:func:`~trainstack.chart.batch.pack`), ``None`` if it failed."""

HELM_RELEASE = "kubernetes:helm.sh/v3:Release"
# Below this many releases a second process costs more than it saves.
BACKGROUND_RENDER_MINIMUM = 32
# Releases per task handed to the worker: what it has not started when the plan needs the
# renders is rendered in the plan's own process instead (a task is the unit of that).
RENDER_CHUNK = 8


class EarlyRenders:
    """Releases rendered ahead of time in a worker process, looked up by their request.

    Only an optimisation: a release whose values differ from what was requested (or that
    failed) is rendered again in the plan's own process, by the same function. The
    worker takes the releases in tasks of :data:`RENDER_CHUNK`; when the plan asks for the
    renders (:meth:`take`), the tasks the worker has not started are rendered in the
    plan's process while the worker finishes its own, so that neither waits long for
    the other, whichever was slowed down.
    """

    def __init__(self, requests: list[RenderRequest]) -> None:
        self._tasks: list[tuple[list[RenderRequest], Future[list[bytes | None]]]] = []
        self._pool: ProcessPoolExecutor | None = None
        if len(requests) >= BACKGROUND_RENDER_MINIMUM:
            # spawn, not fork: the plan's process holds Pulumi's threads and event loop.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=tune_garbage_collector
            )
            self._tasks = [
                (chunk, self._pool.submit(render_all_packed, chunk))
                for chunk in (
                    requests[start : start + RENDER_CHUNK]
                    for start in range(0, len(requests), RENDER_CHUNK)
                )
            ]

    def take(self) -> _Renders:
        """Every requested render, once done here or by the worker (empty when no worker
        was started)."""
        if self._pool is None:
            return {}
        renders: _Renders = {}
        try:
            left = [r for chunk, future in self._tasks if future.cancel() for r in chunk]
            renders.update(zip(left, render_all_packed(left), strict=True))
            for chunk, future in self._tasks:
                if not future.cancelled():
                    renders.update(zip(chunk, future.result(), strict=True))
        except (BrokenProcessPool, OSError):
            pass  # the worker could not run here: what it had left is rendered later
        finally:
            self._pool.shutdown()
            self._pool = None
            # The futures hold their results: dropped, the renders live only in the answer.
            self._tasks = []
        return renders

    def close(self) -> None:
        """Stop the worker at once (the plan failed or was interrupted before :meth:`take`).

        ``shutdown`` alone would wait for the worker to finish every render.
        """
        if self._pool is None:
            return
        # The executor does not stop a running worker: terminate it (a private map, the
        # same in every Python since 3.8).
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        self._pool = None


def is_local_chart(release: PlannedResource) -> bool:
    """A release of a chart in the project (a relative path), which can be rendered offline."""
    chart = str(release.inputs.get("chart", ""))
    return chart.startswith(("./", "../")) or chart.startswith("charts/")


def release_request(project_root: Path, release: PlannedResource) -> RenderRequest:
    """The render of a local-chart ``release``, with the values the program sent for it."""
    inputs = release.inputs
    return RenderRequest.of(
        str(inputs["name"]),
        str(inputs.get("namespace") or "default"),
        (project_root / str(inputs["chart"])).resolve(),
        inputs.get("values") or {},
    )


def expand_local_releases(
    project_root: Path,
    resources: Iterable[PlannedResource],
    digest_key: bytes | None = None,
    early: _Renders | None = None,
) -> list[RenderedObject]:
    """Every object of every local-chart release, sorted by (kind, namespace, name).

    Each release is rendered with the values the program sent for it (``early`` renders
    are used only when they were made from exactly those values; each is taken out of
    ``early`` as it is used, so that a render and its masked copy are not both kept).
    Objects are masked like resources: Secret data never reaches a plan.
    """
    objects: list[RenderedObject] = []
    for release in resources:
        if release.type != HELM_RELEASE or not is_local_chart(release):
            continue
        inputs = release.inputs
        request = release_request(project_root, release)
        namespace = request.namespace
        packed = early.pop(request, None) if early else None
        rendered = unpack(packed) if packed else None
        rendered = rendered or render_training_job(
            inputs.get("values") or {},
            release=request.release,
            namespace=namespace,
            chart_dir=Path(request.chart_dir),
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
