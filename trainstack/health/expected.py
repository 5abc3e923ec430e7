"""The throughput an experiment's runs should reach on a stack, predicted from the stack's
measured GEMM throughput and bus bandwidth (predict, then verify).

One step of data-parallel training on ``n`` GPUs computes ``samples_per_step`` samples
per GPU and all-reduces the gradients:

- compute: ``samples_per_step x flops_per_sample / (GEMM x efficiency)`` seconds, with
  GEMM the median over the stack's nodes of each node's slowest GPU (a synchronous step
  waits for the slowest), FP16 or FP32 as the experiment declares;
- communication: ``S x 2(n-1)/n / busbw`` seconds for ``S`` gradient bytes: the time of
  an allreduce at bus bandwidth ``busbw`` (NVIDIA/nccl-tests doc/PERFORMANCE.md at
  a0b82b2260cf5152b9f8c061bbf7eaf0ba096432, "AllReduce": ``t = S*2*(n-1)/(n*B)``), with
  ``busbw`` that of the experiment's multi-node shape, or within a node for one pod.

The range runs from no overlap at the lowest efficiency (``compute + communication``)
to full overlap at the highest (``max(compute, communication)``); the job's samples per
second is ``n x samples_per_step`` over that time. A run outside the range is suspect:
slower means something the health checks did not see held it back (input pipeline,
another job on its nodes); faster means the declared work is wrong.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from trainstack.experiments.work import Work
from trainstack.health.model import HealthFacts
from trainstack.health.verdict import FIGURES


@dataclass(frozen=True)
class Expected:
    """A predicted range of one experiment's metric on one stack, and what it came from."""

    low: float
    high: float
    basis: str

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


def _gemm(facts: HealthFacts, pool: str | None, precision: str) -> float | None:
    name = "GEMM FP16" if precision == "fp16" else "GEMM FP32"
    read = next(reading for label, _, reading in FIGURES if label == name)
    values = [
        found[0]
        for node in facts.nodes
        if (pool is None or node.pool == pool) and (found := read(node)) is not None
    ]
    return statistics.median(values) if values else None


def _busbw(facts: HealthFacts, experiment: str, pool: str | None, pods: int) -> float | None:
    if pods > 1:
        spans = [s for s in facts.spans if experiment in s.experiments and s.busbw_gbps]
        return spans[0].busbw_gbps.value if spans and spans[0].busbw_gbps else None
    values = [
        node.busbw_gbps.value
        for node in facts.nodes
        if node.busbw_gbps and (pool is None or node.pool == pool)
    ]
    return statistics.median(values) if values else None


def expected(
    work: Work, facts: HealthFacts, experiment: str, pool: str | None, gpus: int, pods: int
) -> Expected | None:
    """The range of ``work.metric`` for ``experiment`` on ``gpus`` GPUs in ``pods`` pods;
    ``None`` when the health facts lack a figure it needs."""
    gemm = _gemm(facts, pool, work.precision)
    if gemm is None or gemm <= 0 or gpus < 1:
        return None
    communication = 0.0
    busbw = None
    if gpus > 1 and work.gradient_bytes_per_step:
        busbw = _busbw(facts, experiment, pool, pods)
        if busbw is None or busbw <= 0:
            return None
        communication = work.gradient_bytes_per_step * 2 * (gpus - 1) / gpus / (busbw * 1e9)
    flops = work.samples_per_step * work.flops_per_sample
    samples = gpus * work.samples_per_step
    bandwidth = f", busbw {busbw:g} GB/s" if busbw is not None else ""
    basis = f"GEMM {work.precision.upper()} {gemm:g} TFLOPS per GPU{bandwidth}, {gpus} GPUs"
    if work.efficiency is None:
        # Nothing declared about how far below the hardware the model runs: only the
        # ceiling is known, and only a run above it is suspect.
        ceiling = samples / max(flops / (gemm * 1e12), communication)
        return Expected(low=0.0, high=ceiling, basis=f"{basis}, ceiling (no efficiency declared)")
    slow = flops / (gemm * 1e12 * work.efficiency.min)
    fast = flops / (gemm * 1e12 * work.efficiency.max)
    return Expected(
        low=samples / (slow + communication),
        high=samples / max(fast, communication),
        basis=f"{basis}, efficiency {work.efficiency.min:g}..{work.efficiency.max:g}",
    )
