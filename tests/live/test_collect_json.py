"""``results collect --format json`` against the recorded cluster: what was recorded, and
why the rest was not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.live.apiserver import RecordedApi
from trainstack.results.render_json import RECORDED_FORMAT


def test_collect_reports_records_and_notes(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("results", "collect", "aiacc", "--kubeconfig", str(cluster), "--format", "json")
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    document = json.loads(ran.stdout)
    assert document["format"] == RECORDED_FORMAT
    assert [item["file"] for item in document["recorded"]] == [
        "results/aiacc/imagenet-tensorflow/run-001.json",
        "results/aiacc/keras-lstm-4x1/run-001.json",
        "results/aiacc/tf-multiworker-mnist/run-001.json",
    ]
    imagenet = document["recorded"][0]["record"]
    assert imagenet["source"] == "cluster"
    assert imagenet["job"]["phase"] == "Succeeded"
    assert imagenet == json.loads((root / document["recorded"][0]["file"]).read_text())
    assert any(
        note.startswith("keras-lstm-1x4: keras-lstm-1x4: Running") for note in document["notes"]
    )
    assert "keras-lstm-2x1: no job on the cluster" in document["notes"]
