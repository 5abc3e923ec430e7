"""Declared metrics, the job's duration, and what nothing reported."""

from __future__ import annotations

from pathlib import Path

from trainstack.metrics import Measurement, MetricSpec, extract, job_duration, log_lines

DATA = Path(__file__).parent / "data"


def _spec(**fields: object) -> MetricSpec:
    return MetricSpec.model_validate(fields)


def test_declared_pattern_reads_its_own_metric_last_match_wins() -> None:
    text = "step 10 samples/s=101.5\nstep 20 samples/s=99.0\nstep 30 samples/s=nan\n"
    spec = _spec(name="samples_per_sec", unit="samples/s", pattern=r"samples/s=([0-9.]+)")
    (found,) = extract(text, [spec]).measurements
    # `nan` does not match [0-9.]+; the last numeric match is 99.0
    assert found == Measurement("samples_per_sec", "samples/s", True, 99.0, "declared", line=2)


def test_declaration_without_pattern_sets_unit_and_direction_of_a_recognised_metric() -> None:
    text = (DATA / "katib-mnist.log").read_text()
    spec = _spec(name="Validation-accuracy", unit="%", higherIsBetter=True)
    found = {m.name: m for m in extract(text, [spec]).measurements}
    assert (found["Validation-accuracy"].unit, found["Validation-accuracy"].parser) == (
        "%",
        "katib",
    )


def test_declared_pattern_wins_over_a_format() -> None:
    text = (DATA / "tf-cnn-benchmarks-aiacc.log").read_text()
    spec = _spec(name="images_per_sec", unit="img/s", pattern=r"^1500\timages/sec: ([0-9.]+)")
    (found,) = extract(text, [spec]).measurements
    assert (found.value, found.parser) == (84.0, "declared")


def test_declared_metrics_nothing_reported() -> None:
    declared = [_spec(name="images_per_sec"), _spec(name="top1", pattern=r"top1: ([0-9.]+)")]
    result = extract("nothing here\n", declared)
    assert result.measurements == ()
    assert [(index, spec.name) for index, spec in result.missing] == [
        (0, "images_per_sec"),
        (1, "top1"),
    ]


def test_duration_from_the_jobs_status() -> None:
    status = {"startTime": "2024-05-06T10:00:00Z", "completionTime": "2024-05-06T10:02:30Z"}
    assert job_duration(status) == Measurement("duration", "s", False, 150.0, "job-status")
    assert job_duration({"startTime": "2024-05-06T10:00:00Z"}) is None
    assert job_duration({"startTime": "yesterday", "completionTime": "today"}) is None


def test_duration_joins_the_log_metrics_but_a_log_value_of_the_same_name_wins() -> None:
    extra = [Measurement("duration", "s", False, 82.0, "job-status")]
    names = [m.name for m in extract("total images/sec: 10\n", [], extra).measurements]
    assert names == ["duration", "images_per_sec"]


def test_lines_split_on_carriage_returns_and_are_cut() -> None:
    lines = log_lines("a\rb\r\nc\n" + "x" * 10_000)
    assert lines[:3] == ["a", "b", "c"]
    assert len(lines[3]) == 4096
