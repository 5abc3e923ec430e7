"""What an experiment computes and communicates per step: the figures that, with a
stack's measured GEMM throughput and bus bandwidth (``trainstack health``), predict the
throughput its runs should reach (:mod:`trainstack.health.expected`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from trainstack.core.base_model import StrictModel, constraint


class Efficiency(StrictModel):
    """The share of the measured GEMM throughput the model reaches: a declared range."""

    min: float = Field(gt=0, le=1, allow_inf_nan=False, description="The lowest share, 0..1.")
    max: float = Field(gt=0, le=1, allow_inf_nan=False, description="The highest share, 0..1.")

    @model_validator(mode="after")
    def _ordered(self) -> Efficiency:
        if self.min > self.max:
            raise constraint("min", self.min, f"at most max ({self.max})")
        return self


class Work(StrictModel):
    """The work of one training step, per GPU, and what the runs report it as."""

    metric: str = Field(
        default="images_per_sec",
        min_length=1,
        max_length=64,
        description="The metric of the whole job the prediction is for (samples per second).",
    )
    flops_per_sample: float = Field(
        gt=0,
        allow_inf_nan=False,
        description="Training FLOPs per sample, forward and backward (e.g. 2.45e10 for "
        "ResNet-50 at 224x224: torchvision's 4.09 G multiply-adds x 2 x 3).",
    )
    samples_per_step: int = Field(
        ge=1, description="Samples each GPU computes per step (its batch size)."
    )
    gradient_bytes_per_step: int = Field(
        ge=0,
        description="Bytes all-reduced per step (parameters x bytes per gradient, e.g. "
        "25,557,032 x 4 for ResNet-50 in FP32).",
    )
    precision: Literal["fp16", "fp32"] = Field(
        description="The GEMM figure that bounds the compute: FP16 on tensor cores, or FP32."
    )
    efficiency: Efficiency | None = Field(
        default=None,
        description="The share of the measured GEMM throughput the model reaches (a "
        "declared expectation from your own profiles, e.g. {min: 0.2, max: 0.6}): real "
        "models are not one GEMM. Unset: the prediction is only the ceiling the measured "
        "hardware allows (efficiency 1, full overlap), and only a run above it is suspect.",
    )
    source: str = Field(
        min_length=1,
        max_length=512,
        description="Where the figures come from (a paper, a model card, a profile).",
    )
