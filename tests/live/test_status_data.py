"""``trainstack status`` shows each dataset's populate Job: its state, and why it failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import Ran, run
from tests.live.apiserver import RecordedApi
from tests.live.recorded_jobs import POPULATE_JOB, record_populate
from trainstack.live.data_jobs import DataJobRow, data_job_text

STATE = "dataset imagenet-data: populate Job populate-imagenet-data (namespace vision)"


def _status(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch, *more: str) -> Ran:
    ran = run(root, "status", "aiacc", "--kubeconfig", str(cluster), *more, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    return ran


def _datasets(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, str]]:
    ran = _status(root, cluster, monkeypatch, "--format", "json")
    datasets: list[dict[str, str]] = json.loads(ran.stdout)["datasets"]
    return datasets


def test_a_populated_dataset(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _status(root, cluster, monkeypatch)
    assert ran.stdout.endswith(f"\n{STATE} Succeeded\n")
    assert f"{POPULATE_JOB}" in api.seen
    # a succeeded Job needs no more: its pods are not read
    assert not any("populate-imagenet-data" in p and "/pods" in p for p in api.seen)
    assert _datasets(root, cluster, monkeypatch) == [
        {
            "dataset": "imagenet-data",
            "namespace": "vision",
            "job": "populate-imagenet-data",
            "role": "populate",
            "phase": "Succeeded",
            "condition": None,
            "reason": None,
        }
    ]


def test_past_its_deadline_with_its_pods_gone(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_populate(api, "job-populate-deadline.json")
    ran = _status(root, cluster, monkeypatch)
    assert ran.stdout.endswith(
        f"\n{STATE} Failed, DeadlineExceeded\n"
        "reason populate-imagenet-data: Job was active longer than specified deadline\n"
    )
    (found,) = _datasets(root, cluster, monkeypatch)
    assert (found["phase"], found["condition"], found["reason"]) == (
        "Failed",
        "DeadlineExceeded",
        "Job was active longer than specified deadline",
    )


def test_a_failed_pods_last_line_is_the_reason(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_populate(api, "job-populate-failed.json", "pods-populate-failed.json")
    ran = _status(root, cluster, monkeypatch)
    assert ran.stdout.endswith(
        f"\n{STATE} Failed, BackoffLimitExceeded\n"
        "reason populate-imagenet-data: populate-imagenet-data-7xk2q: populate failed: "
        "imagenet/imagenet_data/train/train-*: 1023 files match, expected 1024\n"
    )
    # its termination message was enough: no log read
    assert not any("/log" in p for p in api.seen)


def test_a_running_job_shows_its_last_log_line(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_populate(
        api, "job-populate-running.json", "pods-populate-running.json", "log-populate-running.txt"
    )
    (found,) = _datasets(root, cluster, monkeypatch)
    assert (found["phase"], found["condition"], found["reason"]) == (
        "Running",
        None,
        "populate-imagenet-data-r2d2x: [512/1152] train/train-00511-of-01024",
    )
    assert any(
        "/pods/populate-imagenet-data-r2d2x/log?" in p and "tailLines=5" in p for p in api.seen
    )


def test_an_image_that_cannot_be_pulled(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_populate(api, "job-populate-running.json", "pods-populate-pull.json")
    (found,) = _datasets(root, cluster, monkeypatch)
    assert found["reason"] == (
        "populate-imagenet-data-q9w8e: container populate waiting, ImagePullBackOff: Back-off "
        'pulling image "registry-vpc.cn-beijing.aliyuncs.com/team/populate:1"'
    )


def test_a_job_not_created_yet(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    api.routes = [route for route in api.routes if route.path != POPULATE_JOB]
    ran = _status(root, cluster, monkeypatch)
    assert ran.stdout.endswith(f"\n{STATE} not found\n")


def test_what_the_server_sent_is_escaped_and_a_waiting_job_says_so() -> None:
    row = DataJobRow(
        "imagenet-data", "vision", "wait-populated-imagenet-data", "wait", "Failed", "Dead\x1b[2J"
    )
    assert data_job_text([row]) == (
        "dataset imagenet-data: Job waiting for its populate Job, wait-populated-imagenet-data "
        "(namespace vision) Failed, Dead\\x1b[2J\n"
    )


def test_a_failed_chown_step_is_the_reason(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-shot step that gives the NAS root to the Job's user fails where the NAS
    squashes root: its own line, not the main container's (it never started)."""
    record_populate(api, "job-populate-failed.json", "pods-populate-chown.json")
    (found,) = _datasets(root, cluster, monkeypatch)
    assert found["reason"] == "populate-imagenet-data-c4h5n: chown: /data: Operation not permitted"
