"""Rendering many releases in a worker process gives exactly what rendering here gives."""

from __future__ import annotations

from tests.chart.jobs import CHART_DIR, job_values
from trainstack.chart.batch import RenderRequest, render_all
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
        assert early[request] == local


def test_few_releases_start_no_worker() -> None:
    assert EarlyRenders(_requests(2)).take() == {}


def test_failures_are_left_to_the_caller() -> None:
    bad = RenderRequest.of("Bad_Name", "default", CHART_DIR, job_values("mpi"))
    assert render_all([bad]) == {bad: None}
