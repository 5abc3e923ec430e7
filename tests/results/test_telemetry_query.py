"""The run's one range query: its pods by the framework's pod names, its window's step."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from trainstack.config.telemetry import DcgmLabels
from trainstack.results.telemetry_query import pod_pattern, rfc3339, run_query, window_of
from trainstack.training_job.frameworks import framework

START = datetime(2024, 5, 6, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kind", "pattern", "pods", "others"),
    [
        (
            "mpi",
            "imagenet-tensorflow(-launcher|-worker-[0-9]+)(-[a-z0-9]{5})?",
            ["imagenet-tensorflow-worker-3", "imagenet-tensorflow-launcher-x7k2p"],
            ["imagenet-tensorflow-r2-worker-0", "imagenet-tensorflow-worker", "imagenet-x"],
        ),
        (
            "tensorflow",
            "imagenet-tensorflow(-chief-[0-9]+|-evaluator-[0-9]+|-ps-[0-9]+|-worker-[0-9]+)"
            "(-[a-z0-9]{5})?",
            ["imagenet-tensorflow-chief-0", "imagenet-tensorflow-ps-1"],
            ["imagenet-tensorflow-launcher"],
        ),
    ],
)
def test_the_pods_of_the_job_and_no_other_runs(
    kind: str, pattern: str, pods: list[str], others: list[str]
) -> None:
    found = pod_pattern("imagenet-tensorflow", framework(kind))
    assert found == pattern
    assert all(re.fullmatch(found, pod) for pod in pods)  # PromQL anchors its regexes
    assert not any(re.fullmatch(found, pod) for pod in others)


def test_the_query_selects_every_field_by_its_labels() -> None:
    labels = DcgmLabels.model_validate({"pod": "pod", "namespace": "namespace"})
    query = run_query("keras-lstm-1x1", "vision", framework("mpi"), labels)
    assert query.startswith('{__name__=~"DCGM_FI_PROF_SM_ACTIVE|')
    assert query.endswith(
        'DCGM_FI_DEV_THERMAL_VIOLATION",namespace="vision",'
        'pod=~"keras-lstm-1x1(-launcher|-worker-[0-9]+)(-[a-z0-9]{5})?"}'
    )


@pytest.mark.parametrize(
    ("seconds", "resolution", "gpus", "step", "points"),
    [
        (3600, 10, 16, 10, 361),  # an hour at 10 s: 361 points, the most kept
        (7200, 10, 16, 20, 361),  # two hours: the step doubles
        (1500, 15, 16, 15, 101),  # workload 1's run at the chart's 15 s
        (3600, 10, 128, 35, 103),  # 128 GPUs x 15 fields: 200,000 samples at most
        (30, 60, 1, 60, 1),
    ],
)
def test_the_step_keeps_points_and_samples_bounded(
    seconds: int, resolution: int, gpus: int, step: int, points: int
) -> None:
    window = window_of(START, START + timedelta(seconds=seconds), resolution, gpus)
    assert (window.step, window.points) == (step, points)
    assert window.points * gpus * 15 <= 200_000 or points <= 2


def test_times_are_rfc3339_in_utc() -> None:
    assert rfc3339(START.timestamp()) == "2024-05-06T10:00:00Z"
