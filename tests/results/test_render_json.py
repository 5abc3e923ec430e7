"""``results add --format json``: what was recorded, as the files hold it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.results.sample_logs import tf_cnn_log, write
from trainstack.results.render_json import RECORDED_FORMAT


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def _add(root: Path, monkeypatch: pytest.MonkeyPatch, *logs: Path) -> dict:
    args = ("results", "add", "aiacc", "imagenet-tensorflow", *map(str, logs), "--format", "json")
    ran = run(root, *args, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    document: dict = json.loads(ran.stdout)
    return document


def test_each_run_recorded_with_its_file_and_record(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = [
        write(tmp_path / "logs", f"run{i}.log", tf_cnn_log(v))
        for i, v in ((1, 1338.0), (2, 1350.0))
    ]
    document = _add(root, monkeypatch, *logs)

    assert document["format"] == RECORDED_FORMAT
    assert [item["file"] for item in document["recorded"]] == [
        "results/aiacc/imagenet-tensorflow/run-001.json",
        "results/aiacc/imagenet-tensorflow/run-002.json",
    ]
    for item in document["recorded"]:
        assert item["record"] == json.loads((root / item["file"]).read_text())
    first = document["recorded"][0]["record"]
    assert first["format"] == "trainstack-results/1"
    assert (first["stack"], first["experiment"], first["run"]) == (
        "aiacc",
        "imagenet-tensorflow",
        1,
    )
    assert first["metrics"]["images_per_sec"]["value"] == 1338.0
    assert document["skipped"] == [] and document["notes"] == []


def test_a_log_recorded_before_is_skipped_and_said(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write(tmp_path / "logs", "run.log", tf_cnn_log(1344.0))
    _add(root, monkeypatch, log)
    again = _add(root, monkeypatch, log)
    assert again["recorded"] == []
    (skipped,) = again["skipped"]
    assert (skipped["stack"], skipped["experiment"]) == ("aiacc", "imagenet-tensorflow")
    assert skipped["note"]
    assert skipped["record"]["metrics"]["images_per_sec"]["value"] == 1344.0
