from __future__ import annotations

import pytest

from tests.health.factories import facts
from trainstack.experiments.work import Work
from trainstack.health.expected import expected
from trainstack.health.model import Figure, SpanHealth

WORK = Work.model_validate(
    {
        "flopsPerSample": 2.454e10,
        "samplesPerStep": 128,
        "gradientBytesPerStep": 102228128,
        "precision": "fp16",
        "efficiency": {"min": 0.15, "max": 0.6},
        "source": "test",
    }
)


def _with_span(busbw: float) -> object:
    span = SpanHealth(
        name="gpu-v100: 4 pods x 4 GPUs",
        experiments=["imagenet-tensorflow"],
        nodes=[],
        busbw_gbps=Figure(value=busbw, excerpt="..."),
        problems=[],
    )
    return facts("aiacc").model_copy(update={"spans": [span]})


def test_the_range_from_gemm_and_busbw_by_hand() -> None:
    found = expected(WORK, _with_span(10.0), "imagenet-tensorflow", "gpu-v100", 16, 4)  # type: ignore[arg-type]
    assert found is not None
    step = 128 * 2.454e10  # FLOPs per GPU per step
    compute_slow, compute_fast = step / (100e12 * 0.15), step / (100e12 * 0.6)
    allreduce = 102228128 * 2 * 15 / 16 / 10e9  # nccl-tests: t = S*2(n-1)/(n*busbw)
    assert found.low == pytest.approx(16 * 128 / (compute_slow + allreduce))
    assert found.high == pytest.approx(16 * 128 / max(compute_fast, allreduce))
    assert (
        found.basis == "GEMM FP16 100 TFLOPS per GPU, busbw 10 GB/s, 16 GPUs, efficiency 0.15..0.6"
    )


def test_a_slow_interconnect_bounds_the_high_end() -> None:
    found = expected(WORK, _with_span(0.1), "imagenet-tensorflow", "gpu-v100", 16, 4)  # type: ignore[arg-type]
    assert found is not None
    allreduce = 102228128 * 2 * 15 / 16 / 0.1e9
    assert found.high == pytest.approx(16 * 128 / allreduce)


def test_without_a_declared_efficiency_only_the_ceiling_is_known() -> None:
    undeclared = WORK.model_copy(update={"efficiency": None})
    found = expected(undeclared, _with_span(10.0), "imagenet-tensorflow", "gpu-v100", 16, 4)  # type: ignore[arg-type]
    assert found is not None
    compute = 128 * 2.454e10 / 100e12  # every FLOP at the measured GEMM rate
    allreduce = 102228128 * 2 * 15 / 16 / 10e9
    assert found.low == 0.0  # no run is too slow without a declared efficiency
    assert found.high == pytest.approx(16 * 128 / max(compute, allreduce))
    assert found.contains(84.0 * 16)  # workload 1's sample logs' throughput: not suspect
    assert not found.contains(found.high * 1.01)
    assert found.basis.endswith("16 GPUs, ceiling (no efficiency declared)")


def test_without_the_figures_there_is_no_prediction() -> None:
    # a multi-node shape never measured: no busbw across nodes
    assert expected(WORK, facts("aiacc"), "imagenet-tensorflow", "gpu-v100", 16, 4) is None
    # one pod: the busbw within the node
    assert expected(WORK, facts("aiacc"), "x", "gpu-v100", 4, 1) is not None
