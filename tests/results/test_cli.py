"""trainstack results add / compare / scaling, as users run them on a project copy."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import matplotlib.image
import pytest

from tests.cli_helpers import Ran, project_copy, run, run_process
from tests.results.sample_logs import (
    AIACC_IMAGES_PER_SEC,
    BASELINE_IMAGES_PER_SEC,
    add_keras,
    add_tf_cnn_runs,
    tf_cnn_log,
    write,
)


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def _compare(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(root, "results", "compare", "aiacc", "baseline", *args, monkeypatch=monkeypatch)


def _add_workload_1(root: Path, logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = {"aiacc": AIACC_IMAGES_PER_SEC, "baseline": BASELINE_IMAGES_PER_SEC}
    add_tf_cnn_runs(root, logs, runs, monkeypatch)


def test_add_then_compare_workload_1(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    ran = _compare(root, monkeypatch, "--format", "json")
    assert ran.code == 0, ran.stderr
    (row,) = json.loads(ran.stdout)
    assert row["experiment"] == "imagenet-tensorflow"
    assert (row["metric"], row["unit"], row["comparable"]) == ("images_per_sec", "images/sec", True)
    # Ratio of geometric means: 1343.99107 / 1199.99556 - 1 (each side's geometric mean is
    # its mean times 1 - x²/3 with x = 6/1344 and 4/1200), six decimals.
    assert row["change"] == 0.119997
    assert row["changeInterval"] == pytest.approx([0.1097, 0.1304], abs=1e-3)
    assert row["pValue"] < 1e-4 and row["test"] == "Welch's t-test on log values"
    assert (row["a"]["n"], row["b"]["n"]) == (3, 3)
    assert {k: row["a"][k] for k in ("stack", "runs", "mean", "stdev")} == {
        "stack": "aiacc",
        "runs": 3,
        "mean": 1344.0,
        "stdev": 6.0,
    }
    assert {k: row["b"][k] for k in ("stack", "runs", "mean", "stdev")} == {
        "stack": "baseline",
        "runs": 3,
        "mean": 1200.0,
        "stdev": 4.0,
    }
    # t(0.975, 2) = 4.3027; 4.3027 * 6 / sqrt(3) = 14.9048
    assert row["a"]["ci95"] == pytest.approx([1329.095, 1358.905], abs=1e-3)
    text = _compare(root, monkeypatch).stdout
    assert "1344.00 ± 6.00" in text and "1200.00 ± 4.00" in text and "+12.0%" in text
    markdown = _compare(root, monkeypatch, "--format", "markdown").stdout
    assert (
        "| `imagenet-tensorflow` | `images_per_sec` | `images/sec` | 3 | 1344.00 ± 6.00 | 3 | "
        "1200.00 ± 4.00 | +12.0% | +11.0% .. +13.0% | p<0.001 | aiacc better |"
    ) in markdown
    assert "```mermaid\nxychart-beta\n" in markdown


def test_same_logs_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for name in ("one", "two"):
        root = project_copy(tmp_path / name)
        log = write(tmp_path / f"logs-{name}", "launcher.log", tf_cnn_log(1344.0))
        run(
            root,
            "results",
            "add",
            "aiacc",
            "imagenet-tensorflow",
            str(log),
            monkeypatch=monkeypatch,
        )
        directory = root / "results" / "aiacc" / "imagenet-tensorflow"
        outputs.append({p.name: p.read_bytes() for p in sorted(directory.iterdir())})
    assert outputs[0] == outputs[1]
    assert sorted(outputs[0]) == ["run-001.json", "run-001.log"]
    # A saved log says nothing of where it ran.
    assert json.loads(outputs[0]["run-001.json"])["environment"] == "unknown"


def test_a_log_without_metrics_writes_nothing(root: Path, tmp_path: Path) -> None:
    log = write(
        tmp_path,
        "launcher.log",
        "imagenet-tensorflow-worker-0:52:87 [0] NCCL INFO Using network Socket\n",
    )
    ran = run_process(root, "results", "add", "aiacc", "imagenet-tensorflow", str(log))
    assert ran.code == 2
    assert "Traceback" not in ran.stderr
    assert ran.stderr.startswith(
        f"error: invalid training log in {log}: (metrics): found no line in a recognised format; "
        "allowed: one of total-images-per-sec: `Total images/sec = 12881.34`;"
    )
    assert (
        "declare `metrics:` with a `pattern` in experiments/imagenet-tensorflow.yaml" in ran.stderr
    )
    assert not (root / "results").exists()


def test_one_bad_log_among_good_ones_writes_nothing(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = write(tmp_path, "good.log", tf_cnn_log(1344.0))
    bad = write(tmp_path, "bad.log", "PMIX ERROR: UNREACHABLE\n")
    ran = run(
        root,
        "results",
        "add",
        "aiacc",
        "imagenet-tensorflow",
        str(good),
        str(bad),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 2 and "bad.log" in ran.stderr
    assert not (root / "results").exists()


def test_a_declared_metric_the_log_lacks(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = root / "experiments" / "imagenet-tensorflow.yaml"
    path.write_text(
        path.read_text() + "metrics:\n  - {name: top1, unit: '%', pattern: 'top1: ([0-9.]+)'}\n"
    )
    log = write(tmp_path, "launcher.log", tf_cnn_log(1344.0))
    ran = run(
        root, "results", "add", "aiacc", "imagenet-tensorflow", str(log), monkeypatch=monkeypatch
    )
    assert ran.code == 2
    assert (
        "metrics[0] (top1) of experiments/imagenet-tensorflow.yaml: found no line matching its "
        "pattern; allowed: a log that reports top1" in ran.stderr
    )


def test_unknown_experiment_and_stack(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = write(tmp_path, "launcher.log", tf_cnn_log(1344.0))
    ran = run(root, "results", "add", "aiacc", "imagenet", str(log), monkeypatch=monkeypatch)
    assert ran.code == 2
    assert ran.stderr == (
        "error: stack aiacc (stacks/Pulumi.aiacc.yaml) runs no experiment 'imagenet'; its "
        "experiments: imagenet-tensorflow, keras-lstm-1x1, keras-lstm-1x2, keras-lstm-1x4, "
        "keras-lstm-2x1, keras-lstm-4x1, pytorch-ddp-mnist, tf-multiworker-mnist\n"
    )
    ran = run(root, "results", "compare", "aiacc", "baseline2", monkeypatch=monkeypatch)
    assert ran.code == 2 and "stack 'baseline2' has no configuration file" in ran.stderr
    ran = _compare(root, monkeypatch)
    assert ran.code == 2 and "no results for stack aiacc in results/aiacc" in ran.stderr
    assert not (root / "results").exists()


def test_a_hand_edited_results_file(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    path = root / "results" / "baseline" / "imagenet-tensorflow" / "run-002.json"
    path.write_text(path.read_text().replace('"value": 1200.0', '"value": 1200.0,'))
    before = sorted(p for p in (root / "results").rglob("*"))
    ran = run_process(root, "results", "compare", "aiacc", "baseline")
    assert ran.code == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.startswith(
        "error: invalid results file in results/baseline/imagenet-tensorflow/run-002.json: "
        "(document): found invalid JSON (Expecting property name enclosed in double quotes"
    )
    assert sorted(p for p in (root / "results").rglob("*")) == before


def _png_size(path: Path) -> tuple[int, int]:
    height, width, _ = matplotlib.image.imread(path).shape
    return width, height


def test_compare_plots(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _add_workload_1(root, tmp_path / "logs", monkeypatch)
    png, svg = tmp_path / "compare.png", tmp_path / "compare.svg"
    for path in (png, svg):
        ran = _compare(root, monkeypatch, "--plot", str(path))
        assert ran.code == 0, ran.stderr
    assert _png_size(png) == (1000, 600)
    drawing = ElementTree.parse(svg).getroot()
    assert (drawing.get("width"), drawing.get("height")) == ("720pt", "432pt")
    text = svg.read_text()
    # Text stays text (svg.fonttype none): the title, the labels, n under each bar, the
    # legend naming the error bars, the change with its interval above the pair.
    assert "images_per_sec: aiacc vs baseline (higher is better)" in text
    assert "images_per_sec (images/sec)" in text and "imagenet-tensorflow" in text
    assert text.count(">n=3<") == 2 and "95% CI of the mean (Student's t)" in text
    assert "+12.0%" in text and "(95% CI +11.0% .. +13.0%)" in text
    assert "each run" in text and "aiacc (mean)" in text and "baseline (mean)" in text
    again = tmp_path / "again.svg"
    _compare(root, monkeypatch, "--plot", str(again))
    assert again.read_bytes() == svg.read_bytes()
    ran = _compare(root, monkeypatch, "--plot", str(tmp_path / "c.jpg"))
    assert ran.code == 2 and "found suffix '.jpg'; allowed: .png or .svg" in ran.stderr


def test_scaling_of_workload_4(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_keras(root, tmp_path / "logs", monkeypatch)
    ran = run(
        root,
        "results",
        "scaling",
        "aiacc",
        "keras-lstm",
        "--format",
        "json",
        monkeypatch=monkeypatch,
    )
    assert ran.code == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert (result["metric"], result["unit"], result["base"]) == (
        "train_time",
        "s",
        "keras-lstm-1x1",
    )
    points = {p["experiment"]: p for p in result["points"]}
    expected = {  # speed-up t(1 GPU) / t(N); efficiency speed-up / N
        "keras-lstm-1x1": (1, ["scale-up", "scale-out"], 150.0, 1.0, 1.0),
        "keras-lstm-1x2": (2, ["scale-up"], 127.0, 150 / 127, 150 / 127 / 2),
        "keras-lstm-2x1": (2, ["scale-out"], 143.0, 150 / 143, 150 / 143 / 2),
        "keras-lstm-1x4": (4, ["scale-up"], 82.0, 150 / 82, 150 / 82 / 4),
        "keras-lstm-4x1": (4, ["scale-out"], 89.0, 150 / 89, 150 / 89 / 4),
    }
    for name, (gpus, series, mean, speedup, efficiency) in expected.items():
        point = points[name]
        assert (point["gpus"], point["series"], point["mean"]) == (gpus, series, mean)
        assert point["speedup"] == pytest.approx(speedup)
        assert point["efficiency"] == pytest.approx(efficiency)
    text = run(root, "results", "scaling", "aiacc", "keras-lstm", monkeypatch=monkeypatch).stdout
    assert "   4    82.00 (1.83x, 46%)    89.00 (1.69x, 42%)\n" in text
    plot = tmp_path / "scaling.png"
    run(
        root,
        "results",
        "scaling",
        "aiacc",
        "keras-lstm",
        "--plot",
        str(plot),
        monkeypatch=monkeypatch,
    )
    assert _png_size(plot) == (1200, 500)


def test_scaling_of_an_unknown_matrix(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run(root, "results", "scaling", "aiacc", "keras", monkeypatch=monkeypatch)
    assert ran.code == 2
    assert "runs no matrix 'keras'; its matrices: keras-lstm" in ran.stderr
