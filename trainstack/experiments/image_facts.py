"""What an experiment's image holds that its job depends on, recorded next to the job.

An image is opaque to the plan: whether it has the CUDA libraries its framework needs to
use GPUs, or the sshd an MPIJob v2beta1's workers run, is only known from how it was built.
An experiment file says so in ``imageFacts`` (each fact ``true``, ``false`` or
``unverified``, with its source), the plan shows the facts, and refuses a job its image
cannot run.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel

Presence = bool | Literal["unverified"]
"""``true`` (the image has it), ``false`` (it has not) or ``unverified``."""


def shown(presence: Presence) -> str:
    """``yes``, ``no`` or ``unverified``."""
    if presence == "unverified":
        return "unverified"
    return "yes" if presence else "no"


class ImageFacts(StrictModel):
    """Facts about the job's image (``job.image.name``) that decide whether the job can run."""

    cuda: Presence = Field(
        default="unverified",
        description="Whether the image has the CUDA user-space libraries (CUDA runtime, "
        "cuDNN) its framework needs to use GPUs (`true`, `false` or `unverified`): the NVIDIA "
        "runtime injects the driver, not these. `false` with GPUs asked for is refused: the "
        "GPUs would sit idle.",
    )
    sshd: Presence = Field(
        default="unverified",
        description="Whether the image has an sshd at /usr/sbin/sshd and an ssh client "
        "(`true`, `false` or `unverified`): what an MPIJob v2beta1's workers run (`sshd -De`) "
        "and its launcher uses to start ranks. `false` on such a job is refused.",
    )
    source: str = Field(
        min_length=1,
        max_length=512,
        description="Where the facts come from: the image's Dockerfile at a pinned revision, "
        "its documentation, or how you checked (e.g. `docker run --rm IMAGE ls "
        "/usr/sbin/sshd`).",
    )
