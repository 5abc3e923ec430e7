"""``trainstack diff --format json``: a versioned document scripts parse (docs/scripting.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.diff.plan_dirs import write_plan_dir
from tests.diff.test_data_loss import _cluster, _compare
from tests.stack_helpers import REPO
from trainstack.cli import main
from trainstack.diff.model import DataRisk, ReviewedWarning, StackDiff, WarningChanges
from trainstack.diff.render_json import DIFF_FORMAT, diff_json


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    return int(stop.value.code or 0), capsys.readouterr().out


def test_changed_objects_with_their_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2, "bert": 1})
    second = write_plan_dir(tmp_path / "b", "baseline", {"resnet": 4, "bert": 1})
    status, out = _run(monkeypatch, capsys, "--plans", str(first), str(second), "--format", "json")
    document = json.loads(out)

    assert status == 1
    assert (document["format"], document["changes"], document["dataAtRisk"]) == (
        DIFF_FORMAT,
        True,
        False,
    )
    (stack,) = document["stacks"]
    assert (stack["before"], stack["after"]) == (str(first), str(second))
    assert stack["counts"]["changed"] == 2  # resnet's release and its MPIJob
    job = next(item for item in stack["objects"] if item["object"] == "MPIJob default/resnet")
    assert job["status"] == "changed"
    assert job["experiment"] == "default/resnet"
    assert "+      replicas: 4" in job["diff"]
    # these plan directories record no review.json: no warnings, and a note saying so
    assert stack["warnings"]["new"] == [] and stack["warnings"]["notes"]
    assert stack["dataAtRisk"] == [] and stack["config"] == []
    again = _run(monkeypatch, capsys, "--plans", str(first), str(second), "--format", "json")[1]
    assert again == out  # byte-identical


def test_no_changes_exit_0_with_the_same_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write_plan_dir(tmp_path / "a", "aiacc", {"resnet": 2})
    status, out = _run(monkeypatch, capsys, "--plans", str(first), str(first), "--format", "json")
    (stack,) = json.loads(out)["stacks"]
    assert status == 0
    assert stack["objects"] == [] and stack["changes"] is False
    assert stack["counts"] == {"added": 0, "removed": 0, "changed": 0, "unchanged": 2}


def test_data_at_risk(tmp_path: Path) -> None:
    after = _cluster()
    after["trainstack:datasets"] = []
    compared = _compare(tmp_path, _cluster(), after)
    document = json.loads(diff_json([compared.diff]))
    assert document["dataAtRisk"] is True
    (risk,) = document["stacks"][0]["dataAtRisk"]
    assert risk["object"] == "PersistentVolume imagenet-data"
    assert risk["kind"] == "deleted"
    assert risk["reason"].startswith("not in the new plan; protected")


def test_warnings_on_both_sides() -> None:
    found = ReviewedWarning(
        ("experiments/a.yaml", "a", "job.shm", "sharedMemory", "off"),
        "sharedMemory",
        "experiments/a.yaml",
        "a",
        "job.shm",
        "off",
    )
    meant = ReviewedWarning(
        found.identity, "sharedMemory", "experiments/a.yaml", "a", "job.shm", "off", "why", "s"
    )
    changes = WarningChanges(
        new=(found,),
        acknowledged=((meant, True),),
        not_selected=(("experiments/b.yaml", "b"),),
    )
    stack = StackDiff("a", "b", (), warnings=changes)
    warnings = json.loads(diff_json([stack]))["stacks"][0]["warnings"]
    assert warnings["new"] == [
        {
            "id": "sharedMemory",
            "file": "experiments/a.yaml",
            "experiment": "a",
            "key": "job.shm",
            "message": "off",
            "reason": None,
            "acknowledgedIn": None,
        }
    ]
    assert warnings["acknowledged"][0]["reason"] == "why"
    assert warnings["acknowledged"][0]["newlyAcknowledged"] is True
    assert warnings["notSelected"] == [{"file": "experiments/b.yaml", "experiment": "b"}]
    assert warnings["gone"] == [] and warnings["newlyNotSelected"] == []


def test_control_characters_are_escaped() -> None:
    risk = DataRisk("PersistentVolume \x1b[2Jdata", "deleted", "gone\x07")
    out = diff_json([StackDiff("a", "b", (), notes=("\x9b31m",), data_risks=(risk,))])
    assert all(ord(char) < 127 and (char == "\n" or ord(char) >= 32) for char in out)
    assert json.loads(out)["stacks"][0]["dataAtRisk"][0]["object"] == "PersistentVolume \x1b[2Jdata"


def test_the_fairness_report_of_the_example_stacks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    status, out = _run(monkeypatch, capsys, "aiacc", "baseline", "--fairness", "--format", "json")
    document = json.loads(out)
    fairness = document["fairness"]
    assert status == 0
    assert (fairness["before"], fairness["after"], fairness["fair"]) == ("aiacc", "baseline", True)
    assert fairness["findings"]["other"] == []
    assert fairness["findings"]["acceleration"]
    assert set(fairness["findings"]) == {"other", "acceleration", "cluster identity"}
    assert fairness["environment"]["compared"] in (True, False)
    assert document["stacks"][0]["counts"]["changed"] > 0
