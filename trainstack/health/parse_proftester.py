"""``dcgmproftester12`` output: the GEMM throughput of each GPU, in TFLOPS.

Each report line of ``RunSubtestGemmUtil`` (NVIDIA/DCGM v4.2.3, 6e947dcac9b3160d61d98fea
4741d51d4bec5c1f, dcgmproftester/PhysicalGpu.cpp L3252-3260) ends with the gigaflops the
worker achieved: ``Worker G:I [FIELD]: TensorEngineActive: generated ???, dcgm ... (X
gflops).`` (older releases: no final period, and ``Worker G:I[FIELD]``). Field 1004 is FP16
on the tensor cores, 1007 FP32 (with ``--cublas``: cuBLAS SGEMM; without it the test prints
``target ..., dcgm ...`` and no gflops, NVIDIA/DCGM issue #239). The figure per GPU is the
median of its lines after the first (the first second ramps up).
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass

from trainstack.health.excerpt import figure
from trainstack.health.model import Figure

_LINE = re.compile(
    r"Worker\s+(?P<gpu>\d+):(?P<instance>\d+)\s*\[(?P<field>\d+)\]:\s*\w+:\s*generated.*"
    r"\((?P<gflops>[-+0-9.eE]+) gflops\)"
)


@dataclass(frozen=True)
class GemmResult:
    """TFLOPS per GPU index (the tool's own GPU ids), and what went wrong."""

    tflops: dict[int, Figure]
    problems: tuple[str, ...]


def parse_proftester(text: str, field: int) -> GemmResult:
    """The median TFLOPS of each GPU for ``field`` (1004 or 1007)."""
    lines: dict[int, list[tuple[float, str]]] = {}
    for line in text.splitlines():
        found = _LINE.search(line)
        if found is None or int(found["field"]) != field:
            continue
        try:
            gflops = float(found["gflops"])
        except ValueError:
            continue
        if math.isfinite(gflops) and gflops >= 0:
            lines.setdefault(int(found["gpu"]), []).append((gflops, line))
    if not lines:
        return GemmResult({}, (f"dcgmproftester12 -t {field} printed no gflops line",))
    tflops = {}
    for gpu, kept in sorted(lines.items()):
        steady = kept[1:] or kept
        median = statistics.median(value for value, _ in steady) / 1000
        tflops[gpu] = figure(median, [line for _, line in kept[-3:]])
    return GemmResult(tflops, ())
