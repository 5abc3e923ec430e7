"""What an experiment declares about the work of one training sample, for MFU.

``mfu: {flopsPerSample: ..., metric: images_per_sec, precision: fp16}`` on an experiment
file: the floating-point operations one sample costs in training (forward and backward,
as its model's authors count them), the job-scope samples-per-second metric its log
reports, and the precision its matrix products run in. ``results collect`` then records
the model FLOPs utilisation of each run: steady-state samples/s x FLOPs per sample /
(GPUs x the GPU's peak in that precision, :mod:`trainstack.results.gpu_peaks`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from trainstack.core.base_model import StrictModel

Precision = Literal["fp16", "bf16", "tf32", "fp32"]
MAX_FLOPS_PER_SAMPLE = 1e21


class ModelFlops(StrictModel):
    """The work of one training sample (``mfu``), for model FLOPs utilisation."""

    flops_per_sample: Annotated[float, Field(gt=0, le=MAX_FLOPS_PER_SAMPLE)] = Field(
        description="Floating-point operations of one sample's training step, forward and "
        "backward (about 3 times the forward pass; a multiply-add counts 2)."
    )
    metric: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}$")] = Field(
        default="images_per_sec",
        description="The metric that counts samples per second for the whole job.",
    )
    precision: Precision = Field(
        default="fp16",
        description="The precision of its matrix products: `fp16`, `bf16`, `tf32` or `fp32` "
        "(the peak it is measured against).",
    )
