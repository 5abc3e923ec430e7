"""``trainstack:health``: how ``trainstack health STACK`` measures the stack's GPUs.

The images are pinned here, each with where its tag is known from; a digest no public
source states stays a placeholder (``<...>``), which ``trainstack health`` refuses to run
with (``--render`` writes it, and says so): set the key to ``IMAGE:TAG@sha256:...`` once
you have pulled and checked it, or to your mirror's copy.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel

DCGM_IMAGE = (
    "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04"
    "@<sha256 digest of nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04>"
)
"""NVIDIA's DCGM image, DCGM 4.2.3 (NVIDIA/DCGM tag v4.2.3, 6e947dcac9b3160d61d98fea4741
d51d4bec5c1f): ``nv-hostengine``, ``dcgmi`` and ``dcgmproftester12`` (the tag as NVIDIA/DCGM
issue #239 runs it; docker/Dockerfile.ubuntu22.04 installs datacenter-gpu-manager-4).
No public source states its digest: a placeholder."""
NCCL_TESTS_IMAGE = (
    "<an nccl-tests image built with MPI=1 for this pool's GPUs: kubeflow/mpi-operator "
    "examples/v2beta1/nccl-tests/Dockerfile with NVCC_GENCODE for sm_70 on V100, "
    "pinned by digest>"
)
"""What ``--render`` writes while ``trainstack:health.images.ncclTests`` is unset (not a
default: a placeholder default would hold up ``pulumi up`` too). mpi-operator's example
image (``mpioperator/nccl-tests``, kubeflow/mpi-operator
examples/v2beta1/nccl-tests/Dockerfile at 0e20180000c1b1f6b369255f0a4c417d88327fbd) is
compiled for sm_90 only (``CUDA12_GENCODE``): it cannot run on the examples' V100s, so
the image is yours to build and name (``all_reduce_perf`` at ``/opt/nccl_tests/build``,
``mpirun`` and ``sshd`` as in that Dockerfile)."""

DiagLevel = Literal[1, 2, 3, 4]


class HealthImages(StrictModel):
    """The images the health checks run (each a mirror key for regions without egress)."""

    dcgm: str = Field(
        default=DCGM_IMAGE,
        min_length=1,
        max_length=512,
        description="NVIDIA's DCGM image: nvidia-smi -q, dcgmi diag and the GEMM test "
        "(dcgmproftester12); default DCGM 4.2.3, its digest to set.",
    )
    nccl_tests: str | None = Field(
        default=None,
        min_length=1,
        max_length=512,
        description="An nccl-tests image built with MPI=1 for the pool's GPUs "
        "(all_reduce_perf at /opt/nccl_tests/build, mpirun and sshd): yours to build; "
        "unset, `trainstack health` refuses to run (docs/health.md says how to build it).",
    )

    def nccl_tests_image(self) -> str:
        """The nccl-tests image, or what to put there (a placeholder) while it is unset."""
        return self.nccl_tests or NCCL_TESTS_IMAGE


class HealthSettings(StrictModel):
    """What ``trainstack health`` runs on the stack's GPU nodes (docs/health.md)."""

    namespace: str = Field(
        default="trainstack-health",
        pattern=r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
        max_length=63,
        description="The namespace the checks run in: created by `trainstack health` when "
        "absent (and then removed at its end), never one of the teams'.",
    )
    diag_level: DiagLevel = Field(
        default=1,
        description="`dcgmi diag -r LEVEL`: 1 (seconds), 2 (about 2 minutes), 3 (about 15 "
        "minutes), 4 (longer); docs/health.md says what each runs.",
    )
    gemm_seconds: int = Field(
        default=30,
        ge=5,
        le=600,
        description="Seconds each GEMM test (FP16 tensor cores, FP32) loads every GPU.",
    )
    images: HealthImages = Field(
        default_factory=lambda: HealthImages.model_validate({}),
        description="The images of the checks, pinned by digest before a run.",
    )
