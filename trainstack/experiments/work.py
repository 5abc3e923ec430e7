"""What an experiment computes and communicates per step (``work``), declared once for the
two uses of those figures: each run's model FLOPs utilisation, recorded by ``results
collect`` (:mod:`trainstack.results.goodput`), and, with a stack's measured GEMM
throughput and bus bandwidth (``trainstack health``), the throughput its runs should
reach (:mod:`trainstack.health.expected`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint

Precision = Literal["fp16", "bf16", "tf32", "fp32"]
MAX_FLOPS_PER_SAMPLE = 1e21


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

    metric: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}$")] = Field(
        default="images_per_sec",
        description="The metric that counts samples per second for the whole job.",
    )
    flops_per_sample: float = Field(
        gt=0,
        le=MAX_FLOPS_PER_SAMPLE,
        allow_inf_nan=False,
        description="Training FLOPs per sample, forward and backward (e.g. 2.45e10 for "
        "ResNet-50 at 224x224: torchvision's 4.09 G multiply-adds x 2 x 3).",
    )
    samples_per_step: int | None = Field(
        default=None,
        ge=1,
        description="Samples each GPU computes per step (its batch size); needed, with "
        "gradientBytesPerStep, for the predicted throughput range.",
    )
    gradient_bytes_per_step: int | None = Field(
        default=None,
        ge=0,
        description="Bytes all-reduced per step (parameters x bytes per gradient, e.g. "
        "25,557,032 x 4 for ResNet-50 in FP32); needed for the predicted range.",
    )
    precision: Precision = Field(
        default="fp16",
        description="The precision of its matrix products: `fp16`, `bf16`, `tf32` or `fp32`: "
        "the GPU peak MFU is measured against, and the measured GEMM figure (FP16 or FP32; "
        "none for the others) that bounds the predicted range.",
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
