"""Rendering many releases in a worker process gives exactly what rendering here gives."""

from __future__ import annotations

import json
import multiprocessing
import signal
import time

from tests.chart.jobs import CHART_DIR, job_values
from trainstack.chart.batch import RenderRequest, pack, render_all, render_all_packed, unpack
from trainstack.chart.render import render_training_job
from trainstack.plan.charts import BACKGROUND_RENDER_MINIMUM, EarlyRenders


def _requests(count: int) -> list[RenderRequest]:
    return [
        RenderRequest.of(
            f"job-{index}", "default", CHART_DIR, job_values("mpi", worker={"replicas": index + 1})
        )
        for index in range(count)
    ]


def test_worker_renders_match_local_renders() -> None:
    requests = _requests(BACKGROUND_RENDER_MINIMUM)
    early = EarlyRenders(requests).take()
    assert set(early) == set(requests)
    for request in requests[:3]:
        local = render_training_job(
            job_values("mpi", worker={"replicas": int(request.release.split("-")[1]) + 1}),
            release=request.release,
            namespace="default",
            chart_dir=CHART_DIR,
        )
        packed = early[request]
        assert packed is not None
        assert unpack(packed) == local


def test_releases_the_worker_has_not_reached_are_rendered_by_the_plan() -> None:
    """Asked for at once (the worker is still starting), every release is there all the
    same, each exactly as rendering it here gives."""
    requests = _requests(BACKGROUND_RENDER_MINIMUM + 5)
    early = EarlyRenders(requests).take()
    assert set(early) == set(requests)
    for request in requests[-3:]:
        replicas = int(request.release.split("-")[1]) + 1
        local = render_training_job(
            job_values("mpi", worker={"replicas": replicas}),
            release=request.release,
            namespace="default",
            chart_dir=CHART_DIR,
        )
        packed = early[request]
        assert packed is not None
        assert unpack(packed) == local


def test_few_releases_start_no_worker() -> None:
    assert EarlyRenders(_requests(2)).take() == {}


def test_failures_are_left_to_the_caller() -> None:
    bad = RenderRequest.of("Bad_Name", "default", CHART_DIR, job_values("mpi"))
    assert render_all([bad]) == {bad: None}
    assert render_all_packed([bad]) == [None]


def test_packed_renders_unpack_to_the_objects() -> None:
    objects = render_training_job(
        job_values("mpi"), release="job", namespace="default", chart_dir=CHART_DIR
    )
    packed = pack(objects)
    assert unpack(packed) == objects
    assert len(packed) * 4 < len(json.dumps(objects))


def test_a_plan_that_stops_early_terminates_its_worker() -> None:
    """A failed or interrupted plan does not wait for the worker to render everything."""
    before = set(multiprocessing.active_children())
    early = EarlyRenders(_requests(BACKGROUND_RENDER_MINIMUM))
    workers = [p for p in multiprocessing.active_children() if p not in before]
    early.close()
    deadline = time.monotonic() + 30
    # The executor's own thread reaps the worker too: wait until one of us saw it end.
    while any(w.exitcode is None for w in workers) and time.monotonic() < deadline:
        for worker in workers:
            worker.join(timeout=0.1)
    assert workers
    assert [worker.exitcode for worker in workers] == [-signal.SIGTERM] * len(workers)
    assert early.take() == {}
