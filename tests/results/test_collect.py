"""``results collect`` of the runs ``trainstack run`` created: found by the experiment's label,
numbered after the runs already there, each read as the experiment with its ``--set``
values (its shape, its digest), which its record keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi
from tests.live.conftest import api, cluster, digests, root  # noqa: F401 (fixtures)
from tests.live.recorded_jobs import SUBMITTED as NAME
from tests.live.recorded_jobs import record_submitted_run
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments


def test_a_run_with_set_values_is_recorded_as_what_ran(
    root: Path,  # noqa: F811
    cluster: Path,  # noqa: F811
    api: RecordedApi,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    overridden = load_stack_experiments(Project.load(root), "aiacc").run_with(
        "imagenet-tensorflow", {"worker": {"replicas": 2}}
    )
    record_submitted_run(api, tmp_path, '{"worker":{"replicas":2}}', overridden.base_digest)
    ran = run(
        root,
        *("results", "collect", "aiacc", "imagenet-tensorflow"),
        *("--kubeconfig", str(cluster), "--format", "json"),
        monkeypatch=monkeypatch,
    )

    assert ran.code == 0, ran.stderr
    document = json.loads(ran.stdout)
    first, second = (item["record"] for item in document["recorded"])
    assert (first["run"], first["job"]["name"]) == (1, "imagenet-tensorflow")
    assert "overrides" not in first  # deployed by `pulumi up`: none
    assert (second["run"], second["job"]["name"]) == (2, NAME)
    assert second["overrides"] == {"worker": {"replicas": 2}}
    assert second["shape"] == {"gpus": 8, "workers": 2, "gpusPerWorker": 4}
    assert second["baseValuesDigest"] == overridden.base_digest
    assert not [note for note in document["notes"] if "other base values" in note]
    written = root / "results/aiacc/imagenet-tensorflow/run-002.json"
    assert json.loads(written.read_text())["overrides"] == {"worker": {"replicas": 2}}


def test_a_run_whose_set_values_no_longer_apply_is_noted_not_collected(
    root: Path,  # noqa: F811
    cluster: Path,  # noqa: F811
    api: RecordedApi,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record_submitted_run(api, tmp_path, '{"worker":{"gpuz":2}}', "sha256:" + "0" * 64)
    ran = run(
        root,
        *("results", "collect", "aiacc", "imagenet-tensorflow"),
        *("--kubeconfig", str(cluster), "--format", "json"),
        monkeypatch=monkeypatch,
    )

    assert ran.code == 0, ran.stderr
    document = json.loads(ran.stdout)
    assert [item["record"]["job"]["name"] for item in document["recorded"]] == [
        "imagenet-tensorflow"
    ]
    (note,) = [n for n in document["notes"] if NAME in n]
    assert note.startswith(f"imagenet-tensorflow: {NAME}: ran with --set worker.gpuz=2, which")
    assert note.endswith("; not collected")
