"""``results compare --rule mlperf`` as text, markdown and JSON: the rule first, then each
side's runs (failed), score, the change and the verdict."""

from __future__ import annotations

import json

from tests.results.records import failed, images
from trainstack.results.compare import compare
from trainstack.results.render_compare import compare_json, notes_of
from trainstack.results.render_mlperf import mlperf_markdown, mlperf_text


def _rows() -> list:  # type: ignore[type-arg]
    a = images("aiacc", [1338.0, 1344.0, 1350.0, 1347.0, 1341.0])
    a[4] = failed(a[4])
    b = images("baseline", [1196.0, 1200.0, 1204.0])
    return compare("aiacc", {"x": a}, "baseline", {"x": b}, rule="mlperf", min_runs=3)


def test_text_prints_the_rule_then_the_scores() -> None:
    rows = _rows()
    text = mlperf_text(rows, "aiacc", "baseline", notes_of(rows))
    first, _, table, *rest = text.splitlines()
    assert first.startswith("aiacc vs baseline: MLPerf Training scoring (mlcommons/")
    assert "fewer than 3 runs: too few" in first
    assert table.split() == [
        "experiment", "metric", "unit", "aiacc", "runs", "(failed)", "aiacc", "score",
        "baseline", "runs", "(failed)", "baseline", "score", "change", "verdict",
    ]  # fmt: skip
    # aiacc: 1338, 1344, 1350, 1347 and a failed run: drop 1350 and the failed one:
    # (1338 + 1344 + 1347) / 3 = 1343; baseline: 1200; +11.9%.
    assert rest[0].split()[:9] == [
        "x", "images_per_sec", "images/sec", "5", "(1)", "1343.00", "3", "(0)", "1200.00",
    ]  # fmt: skip
    assert rest[0].endswith("+11.9%  aiacc better (MLPerf rule; no test)")
    assert "left out" not in text  # the rule counts every run, the failed one as the slowest


def test_markdown_and_json_carry_the_rule() -> None:
    rows = _rows()
    assert "MLPerf Training scoring" in mlperf_markdown(rows, "aiacc", "baseline", [])
    (item,) = json.loads(compare_json(rows))
    assert item["rule"] == "mlperf" and item["pValue"] is None
    assert item["mlperf"]["a"] == {
        "runs": 5,
        "failed": 1,
        "status": "scored",
        "score": 1343.0,
        "keptRuns": [1, 2, 4],
        "droppedRuns": [3, 5],
    }
    assert item["mlperf"]["minRuns"] == 3
