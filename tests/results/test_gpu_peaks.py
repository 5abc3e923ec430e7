"""GPU peaks by product name: the words must all be there (a V100S is no V100)."""

from __future__ import annotations

import pytest

from trainstack.results.gpu_peaks import peak_of


@pytest.mark.parametrize(
    ("products", "name", "fp16"),
    [
        (["Tesla-V100-SXM2-32GB"], "V100 SXM2", 125.0),  # GPU feature discovery, ACK
        ([None, "Tesla V100-SXM2-16GB"], "V100 SXM2", 125.0),  # DCGM's modelName
        (["Tesla V100-PCIE-16GB"], "V100 PCIe", 112.0),
        (["NVIDIA A100-SXM4-80GB"], "A100", 312.0),
    ],
)
def test_known_gpus(products: list[str | None], name: str, fp16: float) -> None:
    _, entry = peak_of(products)
    assert entry is not None and (entry.name, entry.peak("fp16")) == (name, fp16)


def test_an_unknown_gpu_has_no_peak() -> None:
    assert peak_of(["Tesla V100S-PCIE-32GB"]) == ("Tesla V100S-PCIE-32GB", None)
    assert peak_of([None]) == ("", None)
    _, entry = peak_of(["Tesla-V100-SXM2-32GB"])
    assert entry is not None and entry.peak("bf16") is None
