"""Logs for the results tests, the sample logs of examples/logs/ and the docs' sample output
(workloads 1 and 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from tests.cli_helpers import run

DATA = Path(__file__).resolve().parents[1] / "metrics" / "data"

# Workload 1: about +12% images/sec with AIACC; three runs on each cluster.
AIACC_IMAGES_PER_SEC = (1338.0, 1344.0, 1350.0)  # mean 1344, sample sd 6
BASELINE_IMAGES_PER_SEC = (1196.0, 1200.0, 1204.0)  # mean 1200, sample sd 4
# Workload 4: seconds of training per point of the keras-lstm matrix (1x1 is shared).
KERAS_LSTM_SECONDS = {"1x1": 150, "1x2": 127, "1x4": 82, "2x1": 143, "4x1": 89}


def tf_cnn_log(images_per_sec: float) -> str:
    """A tf_cnn_benchmarks launcher log (NCCL noise included) ending in its total."""
    text = (DATA / "tf-cnn-benchmarks-aiacc.log").read_text()
    return text.replace("total images/sec: 1344.00", f"total images/sec: {images_per_sec:.2f}")


def keras_log(total_seconds: int, epochs: int = 10) -> str:
    """A Keras run whose epochs (progress bars with carriage returns) add up to the total."""
    rest = total_seconds // (epochs + 1)
    times = [total_seconds - rest * (epochs - 1)] + [rest] * (epochs - 1)
    out = []
    for epoch, seconds in enumerate(times, start=1):
        out.append(f"Epoch {epoch}/{epochs}\n")
        out.append(f"\r  1/469 [..............................] - ETA: {seconds}s - loss: 2.3019")
        out.append(
            f"\r469/469 [==============================] - {seconds}s "
            f"{seconds * 1000 // 469}ms/step - loss: {0.4 / epoch:.4f}\n"
        )
    return "".join(out)


def write(directory: Path, name: str, text: str) -> Path:
    """``text`` saved as ``directory/name``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def add_keras(root: Path, logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Record one run of each keras-lstm point on aiacc, from :func:`keras_log`."""
    for point, seconds in KERAS_LSTM_SECONDS.items():
        log = write(logs, f"keras-lstm-{point}.log", keras_log(seconds))
        ran = run(
            root,
            "results",
            "add",
            "aiacc",
            f"keras-lstm-{point}",
            str(log),
            monkeypatch=monkeypatch,
        )
        assert ran.code == 0, ran.stderr


def add_tf_cnn_runs(
    root: Path,
    logs: Path,
    runs: Mapping[str, Sequence[float]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Record runs of ``imagenet-tensorflow`` per stack, one :func:`tf_cnn_log` for each of
    its images/sec figures (saved under ``logs/<stack>/``)."""
    for stack, values in runs.items():
        files = [
            str(write(logs / stack, f"run{i}.log", tf_cnn_log(v))) for i, v in enumerate(values)
        ]
        ran = run(
            root, "results", "add", stack, "imagenet-tensorflow", *files, monkeypatch=monkeypatch
        )
        assert ran.code == 0, ran.stderr
