"""A job object read from the cluster: how many pods it starts, in each API; which run
of an experiment a command picks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi
from tests.live.recorded_jobs import SUBMITTED, record_submitted_run
from trainstack.live.jobs import live_job
from trainstack.training_job.frameworks import framework


def test_the_pods_of_an_mpijob_in_either_api() -> None:
    mpi = framework("mpi")
    v2beta1 = {
        "spec": {"mpiReplicaSpecs": {"Launcher": {"replicas": 1}, "Worker": {"replicas": 4}}}
    }
    # ack-arena's v1alpha1: spec.replicas workers from one template, and one launcher
    v1alpha1 = {"spec": {"replicas": 4, "template": {"spec": {"containers": []}}}}
    assert live_job(mpi, v2beta1).pods_expected == 5
    assert live_job(mpi, v1alpha1).pods_expected == 5
    assert live_job(mpi, {"spec": {}}).pods_expected == 0


def test_logs_show_the_latest_run_or_the_job_named(
    root: Path, cluster: Path, api: RecordedApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a run of `trainstack run` created after the deployed run 1: the latest
    record_submitted_run(api, tmp_path, "{}", "sha256:" + "0" * 64)

    def logs(*args: str) -> str:
        ran = run(
            root,
            "logs",
            "aiacc",
            "imagenet-tensorflow",
            *args,
            "--kubeconfig",
            str(cluster),
            monkeypatch=monkeypatch,
        )
        assert ran.code == 0, ran.stderr
        return ran.stdout

    assert logs().endswith("another run\n")
    assert logs("--job", SUBMITTED).endswith("another run\n")
    assert not logs("--job", "imagenet-tensorflow").endswith("another run\n")
    assert not logs("--run", "1").endswith("another run\n")
    missing = run(
        root,
        "logs",
        "aiacc",
        "imagenet-tensorflow",
        "--job",
        "nope",
        "--kubeconfig",
        str(cluster),
        monkeypatch=monkeypatch,
    )
    assert missing.code == 2
    assert "no MPIJob of job 'nope' of experiment imagenet-tensorflow" in missing.stderr
