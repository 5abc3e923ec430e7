"""Which data a run read: recorded by ``results collect`` from its preflight's log, ``unknown``
for ``results add``, and compared by ``results compare``: two sides that read different
manifests of a dataset are NOT COMPARABLE, naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.diff.plan_dirs import copy_project
from tests.live.apiserver import RecordedApi
from tests.live.conftest import api, cluster, digests, root  # noqa: F401 (fixtures)
from tests.live.recorded_jobs import MANIFEST, VISION_PODS
from tests.results.records import record
from tests.results.test_cli import _add_workload_1, _compare
from trainstack.results.datasets import read_lines
from trainstack.results.record import RunRecord

OTHER = "sha256:" + "9" * 64
LAUNCHER_PREFLIGHT = f"{VISION_PODS}/imagenet-tensorflow-launcher/log"


def test_only_whole_dataset_lines_are_read() -> None:
    lines = [
        "preflight: a check's message on stderr\n",
        f"trainstack preflight: dataset imagenet-data manifest {MANIFEST}\n",
        "trainstack preflight: dataset extra manifest none\n",
        f"trainstack preflight: dataset extra manifest {OTHER}\n",  # a digest wins over none
        f"trainstack preflight: dataset imagenet-data manifest {OTHER}\n",  # the first stays
        f"trainstack preflight: dataset Bad_Name manifest {OTHER}\n",
        f"trainstack preflight: dataset forged manifest {OTHER} and more\n",
        f"trainstack preflight: dataset forged manifest {OTHER.upper()}\n",
        f"  trainstack preflight: dataset forged manifest {OTHER}\n",
        "trainstack preflight: dataset /data is not mounted (no such directory)\n",
    ]
    assert read_lines(lines) == {"imagenet-data": MANIFEST, "extra": OTHER}


def _collect(root: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch) -> dict:  # noqa: F811
    ran = run(
        root,
        *("results", "collect", "aiacc", "imagenet-tensorflow"),
        *("--kubeconfig", str(cluster), "--format", "json"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 0, ran.stderr
    document: dict = json.loads(ran.stdout)
    return document


def test_collect_records_the_manifest_its_preflight_printed(
    root: Path,  # noqa: F811
    cluster: Path,  # noqa: F811
    api: RecordedApi,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    document = _collect(root, cluster, monkeypatch)
    (item,) = document["recorded"]
    assert item["record"]["datasets"] == {"imagenet-data": MANIFEST}
    written = json.loads((root / item["file"]).read_text())
    assert written["datasets"] == {"imagenet-data": MANIFEST}
    # the launcher's preflight container, read bounded by the API server
    asked = [path for path in api.seen if path.startswith(LAUNCHER_PREFLIGHT)]
    assert [path for path in asked if "container=preflight" in path] == [
        f"{LAUNCHER_PREFLIGHT}?container=preflight&limitBytes=262144"
    ]


def test_collect_without_the_preflight_log_records_unknown_and_says_why(
    root: Path,  # noqa: F811
    cluster: Path,  # noqa: F811
    api: RecordedApi,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api.routes = [
        r for r in api.routes if not (r.path == LAUNCHER_PREFLIGHT and "preflight" in str(r.query))
    ]
    document = _collect(root, cluster, monkeypatch)
    (item,) = document["recorded"]
    assert item["record"]["datasets"] == {"imagenet-data": "unknown"}
    (note,) = [n for n in document["notes"] if "preflight log" in n]
    assert note.startswith("imagenet-tensorflow: imagenet-tensorflow: imagenet-tensorflow-launcher")
    assert note.endswith(": datasets unknown")


def _read(
    project: Path, logs: Path, monkeypatch: pytest.MonkeyPatch, aiacc: str, baseline: str
) -> None:
    """Workload 1's runs on both stacks, as if collected reading these manifests."""
    _add_workload_1(project, logs, monkeypatch)
    _set_datasets(project, "aiacc", {"imagenet-data": aiacc})
    _set_datasets(project, "baseline", {"imagenet-data": baseline})


def _set_datasets(project: Path, stack: str, datasets: dict[str, str]) -> None:
    """The stack's runs as if collected with these manifests (the log stays as recorded)."""
    for path in sorted((project / "results" / stack / "imagenet-tensorflow").glob("run-*.json")):
        document = json.loads(path.read_text())
        document["datasets"] = datasets
        path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")


def test_add_records_each_dataset_unknown(
    root: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    path = root / "results/aiacc/imagenet-tensorflow/run-001.json"
    assert json.loads(path.read_text())["datasets"] == {"imagenet-data": "unknown"}
    ran = _compare(root, monkeypatch)
    assert ran.code == 0, ran.stderr
    # no evidence either way: compared, and said to be unchecked
    assert "imagenet-tensorflow: data not checked: dataset imagenet-data (unknown on aiacc; " in (
        ran.stdout
    )


def test_compare_of_different_manifests_is_not_comparable_naming_the_dataset(
    root: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _read(root, tmp_path / "logs", monkeypatch, MANIFEST, OTHER)
    said = (
        "imagenet-tensorflow: NOT COMPARABLE: the stacks read different data: dataset "
        "imagenet-data manifest sha256:4d1b7c9e0a2f on aiacc, sha256:999999999999 on baseline"
    )
    text = _compare(root, monkeypatch)
    assert text.code == 0, text.stderr
    assert f"  - {said}\n" in text.stdout
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert (row["comparable"], row["reason"], row["change"]) == (False, said, None)
    assert row["datasets"] == {"status": "differs"}
    # the same manifest on both sides: compared as before
    _set_datasets(root, "baseline", {"imagenet-data": MANIFEST})
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert (row["comparable"], row["datasets"]) == (True, {"status": "same"})
    assert row["change"] == 0.119997


def test_runs_of_one_side_that_read_two_manifests_are_not_comparable(
    root: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _read(root, tmp_path / "logs", monkeypatch, MANIFEST, MANIFEST)
    first = root / "results/baseline/imagenet-tensorflow/run-001.json"
    first.write_text(first.read_text().replace(MANIFEST, OTHER))
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert row["reason"] == (
        "imagenet-tensorflow: NOT COMPARABLE: the runs on baseline read different data: "
        "dataset imagenet-data manifest sha256:4d1b7c9e0a2f and sha256:999999999999"
    )


def test_a_record_from_before_datasets_were_recorded_still_loads() -> None:
    older = record("aiacc", "imagenet-tensorflow", 1, {"images_per_sec": (1.0, "x", True)})
    assert "datasets" not in older.model_dump(by_alias=True, exclude_defaults=True)
    assert RunRecord.model_validate_json(older.model_dump_json(by_alias=True)).datasets == {}
    with pytest.raises(ValueError, match="datasets"):
        RunRecord.model_validate({**older.model_dump(by_alias=True), "datasets": {"x": "sha1"}})


def test_diff_fairness_of_recorded_runs_with_different_manifests_is_not_comparable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_project(tmp_path / "copy")
    _add_workload_1(project, tmp_path / "logs", monkeypatch)
    fairness = ("diff", "aiacc", "baseline", "--fairness")
    # saved logs: unknown on both sides, a note, no finding
    ran = run(project, *fairness, monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stdout + ran.stderr
    assert (
        "note: recorded runs of imagenet-tensorflow: data not checked: dataset imagenet-data "
        "(unknown on aiacc; unknown on baseline)"
    ) in ran.stdout.splitlines()
    _set_datasets(project, "aiacc", {"imagenet-data": MANIFEST})
    _set_datasets(project, "baseline", {"imagenet-data": OTHER})
    ran = run(project, *fairness, monkeypatch=monkeypatch)
    lines = ran.stdout.splitlines()
    assert ran.code == 1, ran.stdout + ran.stderr
    assert lines[0].startswith("fairness aiacc -> baseline: NOT COMPARABLE: 1 difference")
    assert (
        "  other             dataset imagenet-data: recorded runs of imagenet-tensorflow: the "
        "stacks read different data: dataset imagenet-data manifest sha256:4d1b7c9e0a2f on "
        "aiacc, sha256:999999999999 on baseline"
    ) in lines
