"""Peak dense matrix throughput of the GPUs trainstack knows, for model FLOPs utilisation.

Each figure is the vendor's own, in TFLOPS (10^12 floating-point operations per second,
without structured sparsity), with where it was read. A GPU is known by the words of its
product name (``Tesla-V100-SXM2-32GB`` from GPU feature discovery or ACK's labels,
``Tesla V100-SXM2-32GB`` from DCGM's ``modelName``): all of an entry's words must be
among the name's. A GPU or precision not here gets no MFU, and the run says why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from trainstack.experiments.work import Precision


@dataclass(frozen=True)
class GpuPeak:
    """One GPU's peaks."""

    words: frozenset[str]
    name: str
    tflops: tuple[tuple[Precision, float], ...]
    source: str
    verified: bool
    """Read in the vendor's own document (``False``: in a third party's copy of it)."""

    def peak(self, precision: Precision) -> float | None:
        return dict(self.tflops).get(precision)


PEAKS: tuple[GpuPeak, ...] = (
    GpuPeak(
        frozenset({"v100", "sxm2"}),
        "V100 SXM2",
        (("fp16", 125.0),),
        "NVIDIA, Programming Tensor Cores in CUDA 9 (developer.nvidia.com/programming-tensor-"
        'cores-cuda-9-0): "up to 125 Tensor TFLOPS"',
        True,
    ),
    GpuPeak(
        frozenset({"v100", "pcie"}),
        "V100 PCIe",
        (("fp16", 112.0),),
        "NVIDIA Tesla V100 PCIe product brief PB-08744-001_v03 (images.nvidia.com/content/"
        "tesla/pdf/Tesla-V100-PCIe-Product-Brief.pdf), 112 TFLOPS tensor, read in a copy",
        False,
    ),
    GpuPeak(
        frozenset({"a100"}),
        "A100",
        (("fp16", 312.0), ("bf16", 312.0), ("tf32", 156.0), ("fp32", 19.5)),
        "NVIDIA A100 datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): FP16 "
        "and BF16 tensor 312, TF32 tensor 156, FP32 19.5 TFLOPS dense, read in a copy",
        False,
    ),
)


def _words(product: str) -> frozenset[str]:
    return frozenset(word for word in re.split(r"[^a-z0-9]+", product.lower()) if word)


def peak_of(products: Iterable[str | None]) -> tuple[str, GpuPeak | None]:
    """The first product name given and the entry it matches (``None``: none does)."""
    named = [product for product in products if product]
    for product in named:
        words = _words(product)
        for entry in PEAKS:
            if entry.words <= words:
                return product, entry
    return (named[0] if named else ""), None
