"""``results compare --include-flagged`` and ``--rule mlperf`` as users run them: a run
flagged in its results file is left out, then counted; MLPerf's rule scores every run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_helpers import project_copy, run
from tests.results.records import flagged
from tests.results.test_cli import _add_workload_1, _compare
from trainstack.cli import app
from trainstack.results.record import RunRecord
from trainstack.results.select import PREFERRED_METRICS
from trainstack.results.store import StoredRun, record_json


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def _flag(project: Path, run_file: str) -> None:
    path = project / "results" / "aiacc" / "imagenet-tensorflow" / run_file
    record = RunRecord.model_validate_json(path.read_bytes())
    reason = "hardware thermal slowdown on node n GPU 2 in 4 of 101 samples"
    path.write_text(record_json(flagged(StoredRun(path, record), "throttled", reason).record))


def test_a_flagged_run_is_left_out_then_counted(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    _flag(root, "run-003.json")  # 1350 images/sec
    ran = _compare(root, monkeypatch, "--format", "json")
    (row,) = json.loads(ran.stdout)
    assert row["a"]["runNumbers"] == [1, 2] and row["a"]["mean"] == 1341.0
    assert row["a"]["leftOut"] == [{"run": 3, "why": "flagged: throttled"}]
    text = _compare(root, monkeypatch).stdout
    assert (
        "imagenet-tensorflow: 1 run(s) on aiacc left out, 1 flagged and 0 failed (run 3: "
        "flagged: throttled) (--include-flagged counts flagged runs)"
    ) in text
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json", "--include-flagged").stdout)
    assert row["a"]["runNumbers"] == [1, 2, 3] and row["a"]["leftOut"] == []


def test_mlperf_scores_every_run_with_its_rule_printed(
    root: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    _flag(root, "run-003.json")
    ran = _compare(root, monkeypatch, "--rule", "mlperf")
    assert ran.code == 0
    assert "fewer than 5 runs: too few" in ran.stdout.splitlines()[0]
    assert "too few runs (n=3 < 5) on aiacc" in ran.stdout
    ran = _compare(root, monkeypatch, "--rule", "mlperf", "--min-runs", "3")
    # 3 runs a side: the middle one is the score; flagged run 3 (1350) counts, and is
    # dropped as the fastest: aiacc 1344, baseline 1200: +12.0%.
    line = next(line for line in ran.stdout.splitlines() if line.startswith("imagenet"))
    assert line.split()[3:9] == ["3", "(0)", "1344.00", "3", "(0)", "1200.00"]
    assert "+12.0%  aiacc better (MLPerf rule; no test)" in line
    ran = _compare(root, monkeypatch, "--rule", "mlperf", "--min-runs", "2")
    assert ran.code == 2 and "--min-runs" in ran.stderr
    report = run(root, "results", "report", "aiacc", "baseline", "-o", str(tmp_path / "r"),
                 "--include-flagged", monkeypatch=monkeypatch)  # fmt: skip
    assert report.code == 0


@pytest.mark.parametrize("command", ["compare", "report", "scaling"])
def test_metric_help_names_the_default_as_typed(command: str) -> None:
    """``--metric``'s default is named as ``--metric`` takes it (images_per_sec), never by
    the unit a report prints (images/sec)."""
    printed = CliRunner().invoke(app, ["results", command, "--help"])
    words = " ".join(printed.stdout.split())
    metric = words[words.index("--metric METRIC") :].split(" --")[0]
    assert "(default: " in metric and PREFERRED_METRICS[0] in metric
    assert "/sec" not in metric
