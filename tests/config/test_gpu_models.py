"""Which NVIDIA driver branches each GPU model runs on."""

from __future__ import annotations

import pytest

from trainstack.config.gpu_models import GPU_MODELS, branch, unsupported_driver


def test_the_branch_is_the_versions_first_number() -> None:
    assert (branch("550.144.03"), branch("580.95")) == (550, 580)


@pytest.mark.parametrize("model", ["V100", "P100", "P4", "M60"])
def test_maxwell_pascal_and_volta_end_with_branch_580(model: str) -> None:
    assert unsupported_driver(model, "580.126.09") is None
    assert unsupported_driver(model, "550.144.03") is None
    refused = unsupported_driver(model, "590.44.01")
    assert refused is not None and refused.startswith(
        f"a driver of branch 580 or older for gpuModel {model} ("
    )


def test_newer_and_unknown_models_are_not_refused() -> None:
    assert GPU_MODELS["A100"].last_branch is None
    assert unsupported_driver("A100", "590.44.01") is None
    assert unsupported_driver("a model nobody knows", "999.1") is None
