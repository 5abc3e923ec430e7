"""What ``results compare`` says of the change as users run it: too few runs in every
format, within-run figures, refused values, checked logs, unknown names, escaping."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.cli_helpers import Ran, project_copy, run, run_process
from tests.results.sample_logs import tf_cnn_log, write
from tests.stack_helpers import REPO

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")
RUNS = Path("results") / "aiacc" / "imagenet-tensorflow"


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def _add(root: Path, stack: str, *logs: Path, monkeypatch: pytest.MonkeyPatch) -> Ran:
    names = [str(log) for log in logs]
    return run(
        root, "results", "add", stack, "imagenet-tensorflow", *names, monkeypatch=monkeypatch
    )


def _compare(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(root, "results", "compare", "aiacc", "baseline", *args, monkeypatch=monkeypatch)


def _declare(root: Path, metrics: str) -> None:
    path = root / "experiments" / "imagenet-tensorflow.yaml"
    path.write_text(path.read_text() + f"metrics:\n{metrics}")


def _one_run_each(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for stack, value in (("aiacc", 1344.0), ("baseline", 1200.0)):
        log = write(tmp_path / stack, "run.log", tf_cnn_log(value))
        assert _add(root, stack, log, monkeypatch=monkeypatch).code == 0


def test_one_run_a_side_is_too_few_in_every_format(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for stack, value in (("aiacc", 1344.0), ("baseline", 1200.0)):
        log = write(tmp_path / stack, "run.log", tf_cnn_log(value))
        assert _add(root, stack, log, monkeypatch=monkeypatch).code == 0
    text = _compare(root, monkeypatch).stdout
    assert "+12.0%" in text and "too few runs (n=1); needs at least 2 runs per side" in text
    markdown = _compare(root, monkeypatch, "--format", "markdown").stdout
    assert "| +12.0% | - | - | too few runs (n=1); needs at least 2 runs per side |" in markdown
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert row["verdict"] == "too few runs (n=1); needs at least 2 runs per side"
    assert (row["changeInterval"], row["pValue"], row["runsNeeded"]) == (None, None, None)
    assert row["test"] == "none (fewer than 2 runs on a side)"
    assert (row["a"]["n"], row["b"]["n"]) == (1, 1)
    # No error bar at n=1: the SVG names no interval, and n=1 is written under each bar.
    plot = tmp_path / "one.svg"
    assert _compare(root, monkeypatch, "--plot", str(plot)).code == 0
    svg = plot.read_text()
    assert "95% CI of the mean" not in svg and svg.count(">n=1<") == 2
    assert "(too few runs (n=1))" in svg


def test_not_resolved_names_the_runs_it_takes(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for stack, values in (("aiacc", (1300.0, 1344.0, 1390.0)), ("baseline", (1290, 1320, 1350))):
        logs = [write(tmp_path / stack, f"r{v}.log", tf_cnn_log(v)) for v in values]
        assert _add(root, stack, *logs, monkeypatch=monkeypatch).code == 0
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert row["runsNeeded"] > 3 and row["resolved"] is False
    text = _compare(root, monkeypatch).stdout
    assert f"±2% not resolved: needs ~{row['runsNeeded']} runs per side" in text
    assert (
        "imagenet-tensorflow: to resolve ±2%, set `runs: {imagenet-tensorflow: {count: "
        f"{row['runsNeeded']}}}}}` under trainstack:experiments in both stack files"
    ) in text
    wide = json.loads(_compare(root, monkeypatch, "--format", "json", "--resolve", "10").stdout)
    assert wide[0]["runsNeeded"] < row["runsNeeded"] and wide[0]["resolve"] == 0.1


def _steps(values: list[float], total: float) -> str:
    """A tf_cnn_benchmarks log as workload 1 runs it: a step line every 100 steps."""
    steps = "".join(
        f"{step}\timages/sec: {v:.1f} +/- 0.1 (jitter = 0.5)\t7.{step}\n"
        for step, v in zip(range(100, 100 * len(values) + 1, 100), values, strict=True)
    )
    return (
        "Running warm up\nDone warm up\nStep\tImg/sec\ttotal_loss\n"
        f"{steps}----\ntotal images/sec: {total:.2f}\n----\n"
    )


def test_within_run_figures_kept_warm_up_recorded_drift_flagged(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steady = write(tmp_path, "steady.log", _steps([84.0] * 15, 1344.0))
    # Slows down from 84 to 74 images/sec per worker: last third 12% below the first.
    drifting = write(tmp_path, "drift.log", _steps([84.0] * 5 + [79.0] * 5 + [74.0] * 5, 1264))
    assert _add(root, "aiacc", steady, drifting, monkeypatch=monkeypatch).code == 0
    first = json.loads((root / RUNS / "run-001.json").read_text())["metrics"]["images_per_sec"]
    assert first["line"] == 20 and first["scope"] == "job"
    within = first["within"]
    assert within["values"] == [84.0] * 15 and within["scope"] == "rank"
    assert within["warmup"] == 0 and within["warmupRule"].startswith("the tool's own")
    assert (within["drift"], within["drifted"]) == (0.0, False)
    second = json.loads((root / RUNS / "run-002.json").read_text())["metrics"]["images_per_sec"]
    # (74 - 84) / mean 79 = -12.66%
    assert second["within"]["drift"] == pytest.approx(-10 / 79, abs=1e-6)
    assert second["within"]["drifted"] is True
    baseline = [write(tmp_path / "b", f"{n}.log", tf_cnn_log(v)) for n, v in ((1, 1200), (2, 1204))]
    assert _add(root, "baseline", *baseline, monkeypatch=monkeypatch).code == 0
    text = _compare(root, monkeypatch).stdout
    assert "imagenet-tensorflow: run 2 on aiacc drifted -12.7% within the run" in text
    # A declared warm-up leaves out the first figures of every run, and says so.
    _declare(root, "  - {name: images_per_sec, unit: images/sec, warmup: 3}\n")
    later = write(tmp_path, "later.log", _steps([60.0, 70.0, 80.0] + [84.0] * 12, 1344.5))
    assert _add(root, "aiacc", later, monkeypatch=monkeypatch).code == 0
    third = json.loads((root / RUNS / "run-003.json").read_text())["metrics"]["images_per_sec"]
    assert third["within"]["values"] == [84.0] * 12
    assert (third["within"]["warmup"], third["within"]["warmupRule"]) == (
        3,
        "declared: the first 3 figures",
    )


@pytest.mark.parametrize(
    ("text", "line", "found"),
    [
        ("start\nsamples=12.5\nsamples=inf\n", 3, "inf"),
        ("samples=nan\n", 1, "nan"),
        ("a\nb\nsamples=-3.5\n", 3, "-3.5"),
        ("samples=0\n", 1, "0.0"),
        ("samples=1e999\n", 1, "inf"),
    ],
)
def test_values_not_finite_and_positive_are_refused_naming_the_line(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, line: int, found: str
) -> None:
    _declare(root, "  - {name: samples, unit: samples/s, pattern: 'samples=(\\S+)'}\n")
    log = write(tmp_path, "run.log", text)
    command = ("results", "add", "aiacc", "imagenet-tensorflow", str(log))
    # One as a process (what users see); the others differ only in the log, in this process.
    if found == "nan":
        ran = run_process(root, *command)
    else:
        ran = run(root, *command, monkeypatch=monkeypatch)
    assert ran.code == 2 and "Traceback" not in ran.stderr
    assert ran.stderr == (
        f"error: invalid training log in {log}: line {line} (samples): found {found}; allowed: "
        "a finite number greater than 0 (statistics are on the log scale)\n"
    )
    assert not (root / "results").exists()


def test_a_log_edited_after_recording_is_named_and_not_comparable(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for stack, value in (("aiacc", 1344.0), ("baseline", 1200.0)):
        assert (
            _add(
                root,
                stack,
                write(tmp_path / stack, "r.log", tf_cnn_log(value)),
                monkeypatch=monkeypatch,
            ).code
            == 0
        )
    log = root / RUNS / "run-001.log"
    log.write_text(log.read_text().replace("1344.00", "1444.00"))
    (row,) = json.loads(_compare(root, monkeypatch, "--format", "json").stdout)
    assert not row["comparable"] and row["change"] is None
    assert row["reason"].startswith(
        "imagenet-tensorflow: results/aiacc/imagenet-tensorflow/run-001.log has sha256 "
    )
    assert row["reason"].endswith("the log changed after recording")


def test_unknown_metric_is_an_error_with_did_you_mean_without_plot(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _one_run_each(root, tmp_path, monkeypatch)
    ran = _compare(root, monkeypatch, "--metric", "image_per_sec")
    assert ran.code == 2
    assert ran.stderr == (
        "error: --metric image_per_sec: not recorded in the results of aiacc or baseline (did "
        'you mean "images_per_sec"?); recorded: images_per_sec\n'
    )
    ran = _compare(root, monkeypatch, "--experiment", "imagenet-tensorflw")
    assert ran.code == 2 and 'did you mean "imagenet-tensorflow"?' in ran.stderr


def test_a_unit_with_markdown_stays_inert_in_the_pr_comment(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _declare(root, "  - {name: images_per_sec, unit: '![x](https://e.io/x.png) @org/t'}\n")
    _one_run_each(root, tmp_path, monkeypatch)
    markdown = _compare(root, monkeypatch, "--format", "markdown").stdout
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    # shown as inline code in its cell: no image, no link, no mention
    assert "<img" not in html and "<a " not in html
    assert "<code>![x](https://e.io/x.png) @org/t</code>" in html
    outside = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert "@org" not in outside and "https://" not in outside


def test_concurrent_adds_lose_no_run(root: Path, tmp_path: Path) -> None:
    count = 12
    logs = [write(tmp_path, f"run{n}.log", tf_cnn_log(1300.0 + n)) for n in range(count)]
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "trainstack",
                "results",
                "add",
                "aiacc",
                "imagenet-tensorflow",
                str(log),
            ],
            cwd=root,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for log in logs
    ]
    for process in processes:
        _, error = process.communicate(timeout=240)
        assert process.returncode == 0, error.decode()
    directory = root / RUNS
    records = sorted(p.name for p in directory.glob("run-*.json"))
    assert records == [f"run-{n:03d}.json" for n in range(1, count + 1)]
    values = {
        json.loads(p.read_text())["metrics"]["images_per_sec"]["value"]
        for p in directory.glob("run-*.json")
    }
    assert values == {1300.0 + n for n in range(count)}
    assert not list(directory.glob(".*.tmp"))
