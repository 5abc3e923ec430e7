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
    build: str | None = Field(
        default=None,
        pattern=r"^images/[a-z0-9][a-z0-9._-]*/Dockerfile$",
        description="The project's own Dockerfile the image is built from "
        "(`images/<name>/Dockerfile`), when it is: the plan says its ssh setup is built by "
        "the project. null: built elsewhere.",
        examples=["images/aiacc-ssh/Dockerfile"],
    )
    source: str = Field(
        min_length=1,
        max_length=512,
        description="Where the facts come from: the image's Dockerfile at a pinned revision, "
        "its documentation, or how you checked (e.g. `docker run --rm IMAGE ls "
        "/usr/sbin/sshd`).",
    )


def ssh_setup(facts: ImageFacts | None) -> str:
    """What the plan says of an image's ssh setup: built by the project, verified (the
    facts' source says so), unverified, or none."""
    checked = "each worker's and the launcher's preflight checks its settings at start"
    if facts is None:
        return f"unverified (no imageFacts); {checked}"
    if facts.sshd is True and facts.build is not None:
        return f"built by the project from {facts.build}; {checked}"
    if facts.sshd is True:
        return f"sshd and ssh verified (source: {facts.source}); {checked}"
    if facts.sshd == "unverified":
        return f"unverified (imageFacts.sshd); {checked}"
    return "none (imageFacts.sshd false)"
