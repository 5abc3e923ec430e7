"""TensorBoard beside a job: a Deployment and a Service reading the job's log directory.

As ``arena submit --tensorboard`` does (kubeflow/arena ``charts/*/templates/
tensorboard.yaml``): a Deployment ``<job>-tensorboard`` runs
``tensorboard --logdir <logDir> --host 0.0.0.0`` and a Service ``<job>-tensorboard``
exposes port 6006. The log directory must be on a claim the job mounts (a dataset or the
results claim): TensorBoard mounts that claim read-only at the same path, so it reads
what the job writes without running in the job's pods (a side-car would keep the
training pods from ever completing). Opt-in.

Default image: Arena's ``registry.cn-zhangjiakou.aliyuncs.com/acs/tensorflow:1.12.0-devel``
(kubeflow/arena ``charts/pytorchjob/values.yaml``, ``tensorboardImage``), published by
Alibaba Cloud, pinned by tag (its digest could not be read offline). Any image with the
``tensorboard`` command works (``image``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.training_job.types import AbsolutePath, Quantity

TENSORBOARD_IMAGE = "registry.cn-zhangjiakou.aliyuncs.com/acs/tensorflow:1.12.0-devel"
TENSORBOARD_PORT = 6006


# TensorBoard is small: its own defaults keep a team's LimitRange defaults, sized for
# training containers, from applying to it.


class TensorBoardRequests(StrictModel):
    """What the scheduler reserves for TensorBoard."""

    cpu: Quantity | None = Field(default="250m", description="CPU cores; null leaves it unset.")
    memory: Quantity | None = Field(default="512Mi", description="Memory; null leaves it unset.")


class TensorBoardLimits(StrictModel):
    """What TensorBoard may not exceed (large event files need more memory)."""

    cpu: Quantity | None = Field(default=None, description="CPU cores; null leaves it unset.")
    memory: Quantity | None = Field(default="2Gi", description="Memory; null leaves it unset.")


class TensorBoardResources(StrictModel):
    """Requests and limits of the TensorBoard container."""

    requests: TensorBoardRequests = Field(
        default_factory=TensorBoardRequests, description="Resources the scheduler reserves."
    )
    limits: TensorBoardLimits = Field(
        default_factory=TensorBoardLimits, description="Resources it may not exceed."
    )


class TensorBoard(StrictModel):
    """A TensorBoard Deployment and Service reading the job's log directory (opt-in)."""

    enabled: bool = Field(default=False, description="Run TensorBoard beside the job.")
    log_dir: AbsolutePath | None = Field(
        default=None,
        description="The log directory as the training containers see it: on a dataset's or "
        "the results claim's mountPath (TensorBoard mounts that claim read-only).",
        examples=["/results/logs"],
    )
    image: str = Field(
        default=TENSORBOARD_IMAGE,
        min_length=1,
        pattern=r"^\S+$",
        description="An image with the tensorboard command (default: Arena's).",
    )
    service_type: Literal["ClusterIP", "NodePort", "LoadBalancer"] = Field(
        default="ClusterIP",
        description="How the Service is reached: ClusterIP (kubectl port-forward, the "
        "default), NodePort (Arena's) or LoadBalancer.",
    )
    resources: TensorBoardResources = Field(
        default_factory=TensorBoardResources, description="CPU and memory of TensorBoard."
    )
