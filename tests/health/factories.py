"""Health facts of a stack of 4 V100 nodes, as `trainstack health` writes them, with one
figure changed at a time (the excerpts are lines in each tool's own format)."""

from __future__ import annotations

from trainstack.health.model import DiagResult, Figure, GpuHealth, HealthFacts, NodeHealth

NODES = tuple(f"cn-beijing.192.168.0.{21 + index}" for index in range(4))
BUSBW = 130.0
"""GB/s within a node of 4 V100 over NVLink (a round figure for the tests)."""
FP16 = 100.0
FP32 = 14.0


def _figure(value: float, line: str) -> Figure:
    return Figure(value=value, excerpt=line)


def gpu(index: int, fp16: float = FP16, power: float = 300.0) -> GpuHealth:
    return GpuHealth(
        index=index,
        product="Tesla V100-SXM2-32GB",
        uuid=None,
        sm_clock_max_mhz=_figure(1530, "        SM                          : 1530 MHz"),
        sm_clock_applications_mhz=_figure(1290, "        Graphics                    : 1290 MHz"),
        power_limit_w=_figure(power, f"        Power Limit                 : {power:.2f} W"),
        ecc_mode="Enabled",
        ecc_uncorrected=_figure(0, "                Total               : 0"),
        throttling=[],
        gemm_fp16_tflops=_figure(
            fp16,
            f"Worker {index}:0 [1004]: TensorEngineActive: generated ???, dcgm 0 "
            f"({fp16 * 1000:.3} gflops).",
        ),
        gemm_fp32_tflops=_figure(
            FP32,
            f"Worker {index}:0 [1007]: Fp32EngineActive: generated ???, dcgm 0 "
            f"({FP32 * 1000:.3} gflops).",
        ),
    )


def node(name: str, busbw: float = BUSBW, **gpu_changes: float) -> NodeHealth:
    line = (
        f"  1073741824     268435456     float     sum      -1   14000.0  76.70  {busbw:.2f}"
        "      0   14000.0  76.70  {busbw:.2f}      0"
    )
    return NodeHealth(
        name=name,
        pool="gpu-v100",
        gpus=[gpu(index, **gpu_changes) for index in range(4)],
        diag=DiagResult(level=1, passed=True, failures=[], excerpt="| software | Pass |"),
        busbw_gbps=_figure(busbw, line),
        problems=[],
    )


def facts(
    stack: str,
    busbw: dict[str, float] | None = None,
    measured_at: str = "2026-12-01T10:00:00Z",
    **gpu_changes: float,
) -> HealthFacts:
    """The facts of ``stack``; ``busbw``: a node's busbw other than :data:`BUSBW`."""
    busbw = busbw or {}
    return HealthFacts(
        format="trainstack-health/1",
        stack=stack,
        measured_at=measured_at,
        diag_level=1,
        images={"dcgm": "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04@sha256:" + "0" * 64},
        nodes=[node(name, busbw.get(name, BUSBW), **gpu_changes) for name in NODES],
        spans=[],
        notes=[],
    )
