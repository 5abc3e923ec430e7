"""What ``trainstack health STACK`` measured: ``facts/STACK.health.json`` (format 1).

One typed model, written with sorted keys (the same measurements give the same bytes),
read back strictly. Every figure keeps the raw lines of the log it was read from
(:class:`Figure`), so a reviewer sees what the tool printed, not only what trainstack
made of it. A figure the tool did not print is ``null``, never guessed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from trainstack.core.base_model import StrictModel

HEALTH_FORMAT = "trainstack-health/1"
MAX_EXCERPT_CHARS = 600
"""Characters of log kept per figure: the lines it came from, no more."""


class HealthModel(StrictModel):
    """:class:`StrictModel`, also built from Python by field name."""

    model_config = ConfigDict(validate_by_name=True)


class Figure(HealthModel):
    """One measured number and the log lines it was read from."""

    value: float = Field(allow_inf_nan=False, description="The number, in the unit its key names.")
    excerpt: str = Field(
        max_length=MAX_EXCERPT_CHARS, description="The raw log lines it was read from."
    )


class GpuHealth(HealthModel):
    """One GPU of a node, as `nvidia-smi -q` and the GEMM test report it."""

    index: int = Field(ge=0, description="Its index on the node (nvidia-smi's order).")
    product: str | None = Field(description="`Product Name`.")
    uuid: str | None = Field(description="`GPU UUID`.")
    sm_clock_max_mhz: Figure | None = Field(description="`Max Clocks` > `SM` (MHz).")
    sm_clock_applications_mhz: Figure | None = Field(
        description="`Applications Clocks` > `Graphics` (MHz): what the GPU runs at under load."
    )
    power_limit_w: Figure | None = Field(description="`Power Readings` > `Power Limit` (W).")
    ecc_mode: str | None = Field(description="`ECC Mode` > `Current`: `Enabled`/`Disabled`.")
    ecc_uncorrected: Figure | None = Field(
        description="`ECC Errors` > `Volatile` > `Double Bit`/`DRAM Uncorrectable` total."
    )
    throttling: list[str] = Field(
        description="`Clocks Event Reasons` (older: `Clocks Throttle Reasons`) that are "
        "`Active`, but `Idle` and `Applications Clocks Setting`, sorted."
    )
    gemm_fp16_tflops: Figure | None = Field(
        description="dcgmproftester12 -t 1004 (FP16 on tensor cores): median TFLOPS."
    )
    gemm_fp32_tflops: Figure | None = Field(
        description="dcgmproftester12 --cublas -t 1007 (FP32 SGEMM): median TFLOPS."
    )


class DiagResult(HealthModel):
    """`dcgmi diag -r LEVEL -j` on one node."""

    level: int = Field(ge=1, le=4, description="The level run.")
    passed: bool = Field(description="Every test passed (or was skipped) on every GPU.")
    failures: list[str] = Field(description="`test: GPU N: message` of each failure, sorted.")
    excerpt: str = Field(max_length=MAX_EXCERPT_CHARS, description="The raw result lines.")


class NodeHealth(HealthModel):
    """One node: its GPUs, DCGM's verdict and its GPUs' bus bandwidth within the node."""

    name: str = Field(description="The node's name.")
    pool: str = Field(description="The stack's pool it belongs to.")
    gpus: list[GpuHealth] = Field(description="Its GPUs, by index.")
    diag: DiagResult | None = Field(description="DCGM's diagnostics; `null`: not read.")
    busbw_gbps: Figure | None = Field(
        description="all_reduce_perf over all its GPUs: out-of-place busbw (GB/s) at the "
        "largest message size."
    )
    problems: list[str] = Field(
        description="What could not be measured or read, and why (a failed container, a "
        "garbled log): each makes the node not healthy."
    )


class SpanHealth(HealthModel):
    """all_reduce_perf across the nodes of one experiment's shape (the MPI operator's job)."""

    name: str = Field(description="`POOL: N pods x G GPUs`, the shape measured.")
    experiments: list[str] = Field(description="The experiments of that shape, sorted.")
    nodes: list[str] = Field(description="The nodes its pods ran on, sorted.")
    busbw_gbps: Figure | None = Field(
        description="Out-of-place busbw (GB/s) at the largest message size."
    )
    problems: list[str] = Field(description="What could not be measured, and why.")


class HealthFacts(HealthModel):
    """Everything one ``trainstack health STACK`` measured."""

    format: Literal["trainstack-health/1"] = Field(description="File format and version.")
    stack: str = Field(description="The stack whose nodes were measured.")
    measured_at: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$",
        description="When the checks ended (UTC, ISO 8601, seconds).",
    )
    diag_level: int = Field(ge=1, le=4, description="The `dcgmi diag` level run.")
    images: dict[str, str] = Field(
        description="Each check's image as run, pinned by digest (`IMAGE@sha256:...`)."
    )
    nodes: list[NodeHealth] = Field(description="Every node measured, by name.")
    spans: list[SpanHealth] = Field(description="Every multi-node shape measured, by name.")
    notes: list[str] = Field(description="What was not measured, and why.")
