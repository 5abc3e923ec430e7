"""Each recognised log format, on realistic logs with the noise around the numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainstack.metrics import Measurement, extract

DATA = Path(__file__).parent / "data"


def _read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _metrics(name: str) -> dict[str, Measurement]:
    return {m.name: m for m in extract(_read(name), []).measurements}


def test_tf_cnn_benchmarks_total_not_the_per_step_lines() -> None:
    found = _metrics("tf-cnn-benchmarks-aiacc.log")
    measured = found["images_per_sec"]
    # `total images/sec: 1344.00` is line 32 of the log; the step lines (27-30) are kept as
    # the run's within-run figures: one worker's images/sec after the tool's warm-up.
    assert (measured.value, measured.parser, measured.line, measured.scope) == (
        1344.0,
        "tf-cnn-benchmarks",
        32,
        "job",
    )
    assert measured.intervals is not None
    assert measured.intervals.values == (83.2, 84.5, 84.1, 84.0)
    assert measured.intervals.scope == "rank"
    assert _metrics("tf-cnn-benchmarks-baseline.log")["images_per_sec"].value == 1200.0


def test_workload_2_total_wins_over_one_ranks_tf_cnn_line_among_pmix_errors() -> None:
    found = _metrics("horovod-onprem.log")
    assert found["images_per_sec"].value == 12881.34
    assert found["images_per_sec"].parser == "total-images-per-sec"
    assert set(found) == {"images_per_sec"}  # no PMIX, NCCL or jitter line read as a metric


def test_horovod_synthetic_benchmark_behind_mpirun_rank_tags() -> None:
    found = _metrics("horovod-synthetic.log")
    assert found["images_per_sec"].value == 1344.0
    assert found["images_per_sec"].parser == "horovod-synthetic"
    intervals = found["images_per_sec"].intervals
    assert intervals is not None and intervals.scope == "gpu"
    assert intervals.values == (84.1, 83.9, 84.2)  # `Iter #N: X img/sec per GPU`


def test_keras_epochs_through_carriage_return_progress_bars() -> None:
    raw = (DATA / "keras-lstm-1x1.log").read_bytes().decode()  # carriage returns kept
    found = {m.name: m for m in extract(raw, []).measurements}
    # 24 s, then nine epochs of 14 s: 150 s in all, 15 s on average.
    train = found["train_time"]
    assert (train.value, train.parser, train.unit, train.higher_is_better) == (
        150.0,
        "keras-epochs",
        "s",
        False,
    )
    # The last epoch's bar is on line 21 of the file (its carriage returns start no line).
    assert train.line == 21
    assert train.intervals is not None and train.intervals.values == (24.0,) + (14.0,) * 9
    assert found["epoch_time"].value == 15.0
    # The ETA of unfinished bars and the loss/accuracy are not metrics of their own.
    assert set(found) == {"train_time", "epoch_time"}


def test_keras_3_box_drawing_bars() -> None:
    found = _metrics("keras3-epochs.log")
    assert found["train_time"].value == 160.0  # 82 s + 78 s
    assert found["epoch_time"].value == 80.0


def test_katib_name_value_lines_last_value_wins() -> None:
    found = _metrics("katib-mnist.log")
    assert {name: (m.value, m.higher_is_better) for name, m in found.items()} == {
        "accuracy": (0.9811, True),
        "loss": (0.0612, False),
        "Validation-accuracy": (0.956, True),
    }
    # `Namespace(batch_size=64, lr=0.01, ...)` is an argument dump, not metrics.
    assert "lr" not in found and "batch_size" not in found


def test_mlperf_records_skip_a_cut_record() -> None:
    found = _metrics("mlperf-resnet.log")
    assert found["eval_accuracy"].value == 0.7591
    # run_stop 1700000900500 ms - run_start 1700000000000 ms
    assert found["time_to_train"] == Measurement(
        "time_to_train", "s", False, 900.5, "mlperf", line=7
    )


def test_mlperf_failed_run_has_no_time_to_train() -> None:
    text = _read("mlperf-resnet.log").replace('"status": "success"', '"status": "aborted"')
    assert "time_to_train" not in {m.name for m in extract(text, []).measurements}


@pytest.mark.parametrize(
    "name",
    ["tf-cnn-benchmarks-aiacc.log", "horovod-onprem.log", "keras-lstm-1x1.log", "katib-mnist.log"],
)
def test_no_format_reads_noise_alone(name: str) -> None:
    noise = "\n".join(
        line
        for line in _read(name).splitlines()
        if "NCCL" in line or "PMIX" in line or "Warning" in line or "Namespace(" in line
    )
    assert extract(noise, []).measurements == ()
