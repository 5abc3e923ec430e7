"""``trainstack status --format json`` against the recorded cluster: a versioned document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi
from trainstack.live.status import StatusRow
from trainstack.live.status_json import STATUS_FORMAT, status_json


def test_every_run_typed(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("status", "aiacc", "--kubeconfig", str(cluster), "--format", "json")
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    document = json.loads(ran.stdout)
    assert document["format"] == STATUS_FORMAT
    assert document["stack"] == "aiacc"
    assert document["cluster"].startswith("context 'aiacc-admin' (http://127.0.0.1:")
    jobs = {job["experiment"]: job for job in document["jobs"]}
    assert jobs["imagenet-tensorflow"] == {
        "experiment": "imagenet-tensorflow",
        "run": 1,
        "job": "imagenet-tensorflow",
        "kind": "MPIJob",
        "phase": "Succeeded",
        "podsReady": 0,
        "podsExpected": 5,
        "started": "2024-05-06T10:00:00Z",
        "completed": "2024-05-06T10:25:00Z",
        "durationSeconds": 1500.0,
        "reason": None,
    }
    # one of its 2 pods ready: the worker whose preflight failed, and the line it failed with
    running = jobs["keras-lstm-1x4"]
    assert (running["phase"], running["podsReady"], running["completed"]) == ("Running", 1, None)
    assert running["reason"] == (
        "keras-lstm-1x4-worker-0: trainstack preflight: the workers' sshd /usr/sbin/sshd is "
        "not in the image (the MPI transport is ssh: docs/mpi-transport.md)"
    )
    missing = jobs["keras-lstm-2x1"]
    assert (missing["phase"], missing["podsReady"], missing["durationSeconds"]) == (
        "not found",
        None,
        None,
    )
    again = run(root, *args, monkeypatch=monkeypatch)
    assert again.stdout == ran.stdout


def test_a_job_without_a_run_label_and_hostile_names() -> None:
    row = StatusRow("x", "-", "x\x1b[2J", "MPIJob", "Running", "1/2", "-", "-", "-")
    out = status_json([row], "aiacc", "context 'a'")
    assert "\x1b" not in out
    (job,) = json.loads(out)["jobs"]
    assert (job["run"], job["job"], job["podsExpected"]) == (None, "x\x1b[2J", 2)
