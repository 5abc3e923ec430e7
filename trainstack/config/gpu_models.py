"""Which NVIDIA driver branches each GPU model runs on, as data per model.

A node pool that declares its nodes' driver (``nvidiaDriver``) is checked against its
``gpuModel``: a branch newer than the last one that supports the model is refused. The
facts, per architecture:

- Maxwell, Pascal and Volta: "The release 580 series will be the last to support GPUs
  based on the Maxwell, Pascal, and Volta architectures" (NVIDIA, Unix graphics feature
  deprecation schedule, https://forums.developer.nvidia.com/t/unix-graphics-feature-
  deprecation-schedule/60588; read as quoted by Phoronix and Neowin, not at the source
  offline).
- Turing and newer: supported by every branch to date (none announced as the last).

A model not listed here is not checked (the plan cannot tell its architecture).
"""

from __future__ import annotations

from dataclasses import dataclass

_R580_LAST = (
    "NVIDIA's release 580 series is the last to support Maxwell, Pascal and Volta "
    "(Unix graphics feature deprecation schedule)"
)


@dataclass(frozen=True)
class GpuModel:
    """One GPU model: its architecture and the last driver branch that supports it."""

    architecture: str
    last_branch: int | None = None
    """``None``: no last branch announced."""
    why: str = ""


GPU_MODELS: dict[str, GpuModel] = {
    "M40": GpuModel("Maxwell", 580, _R580_LAST),
    "M60": GpuModel("Maxwell", 580, _R580_LAST),
    "P4": GpuModel("Pascal", 580, _R580_LAST),
    "P40": GpuModel("Pascal", 580, _R580_LAST),
    "P100": GpuModel("Pascal", 580, _R580_LAST),
    "V100": GpuModel("Volta", 580, _R580_LAST),
    "T4": GpuModel("Turing"),
    "A10": GpuModel("Ampere"),
    "A100": GpuModel("Ampere"),
    "L20": GpuModel("Ada Lovelace"),
    "H100": GpuModel("Hopper"),
}
"""The GPU models the checks know, by the name a pool's ``gpuModel`` gives."""


def branch(version: str) -> int:
    """The driver branch of a version: ``550`` of ``550.144.03``."""
    return int(version.split(".", 1)[0])


def unsupported_driver(gpu_model: str, version: str) -> str | None:
    """What is allowed instead, when ``version``'s branch cannot run ``gpu_model``; ``None``
    when it can, or the model is not known."""
    model = GPU_MODELS.get(gpu_model)
    if model is None or model.last_branch is None or branch(version) <= model.last_branch:
        return None
    return (
        f"a driver of branch {model.last_branch} or older for gpuModel {gpu_model} "
        f"({model.architecture}: {model.why})"
    )
