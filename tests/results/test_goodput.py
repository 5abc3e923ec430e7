"""Goodput and MFU of a run from the job's times, its telemetry and its metrics, by hand."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from trainstack.experiments.work import Work
from trainstack.results.goodput import goodput_of, restarts_of, steady_throughput
from trainstack.results.record import MetricValue
from trainstack.results.telemetry_model import RunTelemetry

CREATED = "2024-05-06T10:00:00Z"
ENDED = datetime(2024, 5, 6, 10, 25, tzinfo=UTC)


def _telemetry(sm_active: list[float | None]) -> RunTelemetry:
    document: dict[str, Any] = {
        "source": "Prometheus at http://prometheus.test",
        "query": "{}",
        "start": CREATED,
        "end": "2024-05-06T10:25:00Z",
        "stepSeconds": 15,
        "gpus": 16,
        "fields": {},
        "series": {"DCGM_FI_PROF_SM_ACTIVE": sm_active},
        "nodes": [],
        "notExported": [],
        "smActiveFloor": 0.3,
        "flags": [],
        "notes": [],
    }
    return RunTelemetry.model_validate(document)


def _images(value: float, scope: str = "job", within: list[float] | None = None) -> MetricValue:
    document: dict[str, Any] = {
        "value": value,
        "unit": "images/sec",
        "higherIsBetter": True,
        "parser": "tf-cnn-benchmarks",
        "scope": scope,
    }
    if within is not None:
        document["within"] = {
            "values": within,
            "scope": scope,
            "source": "test",
            "warmup": 0,
            "warmupRule": "none",
            "drift": None,
            "drifted": False,
        }
    return MetricValue.model_validate(document)


def _goodput(telemetry: RunTelemetry | str, **more: Any) -> Any:
    arguments: dict[str, Any] = {
        "created": CREATED,
        "started": "2024-05-06T10:00:20Z",
        "ended": ENDED,
        "telemetry": telemetry,
        "restarts": 0,
        "metrics": {"images_per_sec": _images(1344.0)},
        "gpus": 16,
        "products": ["Tesla-V100-SXM2-32GB"],
        "work": None,
    }
    return goodput_of(**{**arguments, **more})


def test_where_the_wall_time_went() -> None:
    # 101 points of 15 s: idle at 0, 1, 2, 3 (and a stall at 50), busy otherwise: first
    # step at 4 x 15 = 60 s; 96 busy points = 1440 s of 1500: goodput 0.96.
    series: list[float | None] = [0.0] * 4 + [0.8] * 97
    series[50] = 0.05
    goodput = _goodput(_telemetry(series))
    assert (goodput.wall_seconds, goodput.queued_seconds) == (1500.0, 20.0)
    assert (goodput.to_first_step_seconds, goodput.training_seconds) == (60, 1440)
    assert goodput.goodput == 0.96 and goodput.basis == []
    assert (goodput.throughput, goodput.metric, goodput.mfu) == (1344.0, "images_per_sec", None)


def test_without_telemetry_only_the_jobs_times() -> None:
    goodput = _goodput("not collected")
    assert goodput.wall_seconds == 1500.0 and goodput.goodput is None
    assert goodput.basis == ["to first step, training, goodput: telemetry not collected"]


def test_mfu_against_the_gpus_peak() -> None:
    # 1344 images/s x 1e10 FLOPs / (16 x 125e12 FLOP/s) = 0.00672.
    work = Work.model_validate({"flopsPerSample": 1e10, "source": "test"})
    goodput = _goodput("not collected", work=work)
    assert goodput.mfu == pytest.approx(0.0067, abs=1e-4)
    assert goodput.basis[-1].startswith(
        "MFU: 1344 images/sec x 1e+10 FLOPs / (16 x 125 TFLOPS fp16, V100 SXM2: NVIDIA"
    )


@pytest.mark.parametrize(
    ("products", "metrics", "said"),
    [
        (["Tesla V100S-PCIE-32GB"], None, "MFU: no fp16 peak known for Tesla V100S-PCIE-32GB"),
        ([], None, "MFU: no fp16 peak known for the GPU (unknown)"),
        (None, {"images_per_sec": _images(84.0, "rank")}, "covers one rank, not the whole job"),
        (None, {}, "MFU: no images_per_sec in the log"),
    ],
)
def test_mfu_says_why_it_is_missing(
    products: list[str] | None, metrics: dict[str, MetricValue] | None, said: str
) -> None:
    work = Work.model_validate({"flopsPerSample": 1e10, "source": "test"})
    more: dict[str, Any] = {"work": work}
    if products is not None:
        more["products"] = products
    if metrics is not None:
        more["metrics"] = metrics
    goodput = _goodput("not collected", **more)
    assert goodput.mfu is None and said in goodput.basis[-1]


def test_steady_throughput_is_the_median_of_the_within_run_figures_at_its_scope() -> None:
    metrics = {"images_per_sec": _images(1344.0, "job", [1300.0, 1350.0, 1340.0])}
    assert steady_throughput(metrics, None)[:2] == ("images_per_sec", 1340.0)  # type: ignore[index]
    rank = {"images_per_sec": _images(1344.0, "job", None)}
    assert steady_throughput(rank, None)[:2] == ("images_per_sec", 1344.0)  # type: ignore[index]


def test_restarts_of_the_pods_and_the_jobs_condition() -> None:
    pods = [
        {"status": {"containerStatuses": [{"restartCount": 2}, {"restartCount": "x"}]}},
        {"status": {}},
    ]
    assert restarts_of({}, pods) == 2
    assert restarts_of({"conditions": [{"type": "Restarting", "status": "False"}]}, []) == 1
