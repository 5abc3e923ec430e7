"""The report's telemetry section: nothing without telemetry; with it, the counted runs'
goodput table and each experiment's plot of what its runs' GPUs did."""

from __future__ import annotations

import base64
import re

from tests.results.records import images, stored
from trainstack.results.compare import compare
from trainstack.results.record import RunRecord
from trainstack.results.report_telemetry import telemetry_section
from trainstack.results.store import StoredRun


def _with_telemetry(run: StoredRun) -> StoredRun:
    telemetry = {
        "source": "Prometheus at http://prometheus.test",
        "query": "{}",
        "start": "2024-05-06T10:00:00Z",
        "end": "2024-05-06T10:01:00Z",
        "stepSeconds": 15,
        "gpus": 16,
        "fields": {
            "DCGM_FI_PROF_SM_ACTIVE": {"mean": 0.6, "p5": 0.0, "p95": 0.8, "samples": 80},
            "DCGM_FI_DEV_POWER_USAGE": {"mean": 250.0, "p5": 60, "p95": 290, "samples": 80},
        },
        "series": {"DCGM_FI_PROF_SM_ACTIVE": [0.0, 0.8, 0.8, None, 0.8]},
        "nodes": [],
        "notExported": [],
        "smActiveFloor": 0.3,
        "flags": [],
        "notes": [],
    }
    goodput = {
        "wallSeconds": 60, "queuedSeconds": 0, "toFirstStepSeconds": 15,
        "trainingSeconds": 45, "goodput": 0.75, "restarts": 1, "throughput": 1344,
        "metric": "images_per_sec", "mfu": None, "basis": [],
    }  # fmt: skip
    document = run.record.model_dump(mode="json", by_alias=True)
    record = RunRecord.model_validate({**document, "telemetry": telemetry, "goodput": goodput})
    return stored(record)[0]


def test_nothing_without_telemetry() -> None:
    a, b = images("aiacc", [1344.0]), images("baseline", [1200.0])
    rows = compare("aiacc", {"imagenet-tensorflow": a}, "baseline", {"imagenet-tensorflow": b})
    runs = {"aiacc": {"imagenet-tensorflow": a}, "baseline": {"imagenet-tensorflow": b}}
    assert telemetry_section(rows, runs) == ""


def test_the_goodput_table_and_each_runs_gpus_over_its_window() -> None:
    a = [_with_telemetry(run) for run in images("aiacc", [1344.0, 1340.0])]
    b = images("baseline", [1200.0])
    rows = compare("aiacc", {"imagenet-tensorflow": a}, "baseline", {"imagenet-tensorflow": b})
    runs = {"aiacc": {"imagenet-tensorflow": a}, "baseline": {"imagenet-tensorflow": b}}
    html = telemetry_section(rows, runs)
    assert html.startswith("<h2>GPU telemetry and goodput</h2>")
    cells = re.findall(r"<td>([^<]*)</td>", html)
    # aiacc, the 2 runs that count: SM active 60%, power 250 W, first step 15 s, goodput
    # 75%, 1 + 1 restarts; baseline has no telemetry: no row.
    assert cells == ["imagenet-tensorflow", "aiacc", "2", "60.0%", "-", "250", "15",
                     "75.0%", "2", "-"]  # fmt: skip
    (image,) = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    svg = base64.b64decode(image).decode()
    assert "SM active (%)" in svg and "run 2" in svg and "aiacc" in svg
    assert 'alt="imagenet-tensorflow: SM active, tensor active, power and SM clock' in html
