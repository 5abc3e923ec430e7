"""Scaling as users read it: GPUs on a log2 axis, efficiency from 0 to 100%, both stacks on
one plot, rounded JSON, and an unknown metric named with a did-you-mean."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from tests.results.sample_logs import KERAS_LSTM_SECONDS, keras_log, write


def _add_keras(root: Path, logs: Path, stack: str, slower: float, mp: pytest.MonkeyPatch) -> None:
    for point, seconds in KERAS_LSTM_SECONDS.items():
        log = write(logs / stack, f"{point}.log", keras_log(round(seconds * slower)))
        ran = run(root, "results", "add", stack, f"keras-lstm-{point}", str(log), monkeypatch=mp)
        assert ran.code == 0, ran.stderr


def test_both_stacks_on_one_scaling_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project_copy(tmp_path / "project")
    _add_keras(root, tmp_path / "logs", "aiacc", 1.0, monkeypatch)
    _add_keras(root, tmp_path / "logs", "baseline", 1.2, monkeypatch)
    plot = tmp_path / "scaling.svg"
    ran = run(
        root, "results", "scaling", "aiacc", "keras-lstm", "--against", "baseline",
        "--plot", str(plot), monkeypatch=monkeypatch,
    )  # fmt: skip
    assert ran.code == 0, ran.stderr
    svg = plot.read_text()
    assert svg.count("total GPUs (log2 scale)") == 2 and "scaling efficiency (%)" in svg
    for label in ("aiacc scale-up", "aiacc scale-out", "baseline scale-up", "baseline scale-out"):
        assert label in svg
    assert "keras-lstm on aiacc and baseline" in svg
    # Ticks at the GPU counts (log2: 1, 2, 4 evenly apart) on both panels; the efficiency
    # axis runs from 0 to 100 (no point beyond linear here).
    texts = [node.text for node in ElementTree.parse(plot).iter() if node.tag.endswith("text")]
    assert texts.count("4") == 2 and texts.count("1") == 2 and texts.count("2") == 2
    efficiency = texts[: texts.index("scaling efficiency (%)")]
    efficiency = efficiency[len(efficiency) - 6 :]
    assert efficiency == ["0", "20", "40", "60", "80", "100"]


def test_scaling_json_is_rounded_and_a_metric_typo_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project_copy(tmp_path / "project")
    _add_keras(root, tmp_path / "logs", "aiacc", 1.0, monkeypatch)
    ran = run(root, "results", "scaling", "aiacc", "keras-lstm", "--format", "json",
              monkeypatch=monkeypatch)  # fmt: skip
    points = json.loads(ran.stdout)["points"]
    for point in points:
        for key in ("mean", "speedup", "efficiency"):
            assert round(point[key], 6) == point[key]
    assert {p["experiment"]: p["speedup"] for p in points}["keras-lstm-1x2"] == 1.181102  # 150/127
    ran = run(root, "results", "scaling", "aiacc", "keras-lstm", "--metric", "train_tme",
              monkeypatch=monkeypatch)  # fmt: skip
    assert ran.code == 2
    assert ran.stderr == (
        "error: --metric train_tme: not recorded in matrix keras-lstm on aiacc (did you mean "
        '"train_time"?); recorded: epoch_time, train_time\n'
    )
    points_asked = ("--experiment", "keras-lstm-1x1", "--experiment", "keras-lstm-1x2")
    ran = run(root, "results", "scaling", "aiacc", "keras-lstm", *points_asked, "--format",
              "json", monkeypatch=monkeypatch)  # fmt: skip
    assert [p["experiment"] for p in json.loads(ran.stdout)["points"]] == [
        "keras-lstm-1x1",
        "keras-lstm-1x2",
    ]
