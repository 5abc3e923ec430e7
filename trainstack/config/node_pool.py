"""The GPU node pool: its shape decides what every experiment can ask for."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.base_model import StrictModel, constraint
from trainstack.config.names import LabelKey, LabelValue, NodeName, Quantity
from trainstack.quantity import parse_quantity

InstanceType = Annotated[str, StringConstraints(pattern=r"^ecs\.[a-z0-9-]+\.[a-z0-9]+$")]

GPU_RESOURCE = "nvidia.com/gpu"


class Taint(StrictModel):
    """A node taint: pods without a matching toleration are kept off the node."""

    key: LabelKey = Field(description="Taint key, e.g. `nvidia.com/gpu`.")
    value: LabelValue = Field(default="", description="Taint value, e.g. `true`.")
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] = Field(
        default="NoSchedule", description="What happens to pods that do not tolerate the taint."
    )


def _default_taints() -> list[Taint]:
    # GPU nodes are expensive: only pods that tolerate this taint (GPU jobs) land there.
    return [Taint.model_validate({"key": GPU_RESOURCE, "value": "true", "effect": "NoSchedule"})]


class Autoscaling(StrictModel):
    """Cluster-autoscaler bounds of the pool (ACK node pool auto scaling)."""

    enabled: bool = Field(default=False, description="Let the cluster autoscaler resize the pool.")
    min_size: int = Field(default=0, ge=0, le=1000, description="Fewest nodes when scaled in.")
    max_size: int = Field(ge=1, le=1000, description="Most nodes when scaled out.")

    @model_validator(mode="after")
    def _bounds(self) -> Autoscaling:
        if self.min_size > self.max_size:
            raise constraint("minSize", self.min_size, f"<= maxSize ({self.max_size})")
        return self


class SystemDisk(StrictModel):
    """The system disk of each node (images of training containers are large)."""

    category: Literal["cloud_essd", "cloud_ssd", "cloud_efficiency", "cloud_auto"] = Field(
        default="cloud_essd", description="ECS disk category."
    )
    size_gib: int = Field(default=120, ge=20, le=2048, description="Size in GiB.")


class NodePool(StrictModel):
    """GPU nodes for training, labelled and tainted so that only GPU work lands there."""

    name: Annotated[str, StringConstraints(pattern=r"^[a-z][-a-z0-9]{0,62}$")] = Field(
        default="gpu", description="Name of the node pool."
    )
    instance_types: list[InstanceType] = Field(
        default_factory=list,
        description="ECS instance types, in order of preference (ACK only), e.g. "
        "`ecs.gn6e-c12g1.12xlarge`. All must have the same GPUs per node.",
    )
    gpus_per_node: int = Field(ge=1, le=16, description="GPUs on each node.")
    gpu_model: str = Field(min_length=1, description="GPU model, e.g. `V100` (for reports).")
    cpu_per_node: Quantity | None = Field(
        default=None,
        description="Allocatable CPU of a node (e.g. `48`); when set, plan-time checks "
        "refuse pods that ask for more.",
    )
    memory_per_node: Quantity | None = Field(
        default=None,
        description="Allocatable memory of a node (e.g. `368Gi`); when set, plan-time checks "
        "refuse pods that ask for more.",
    )
    desired_size: int = Field(
        ge=0,
        le=1000,
        description="Number of nodes. With autoscaling on, the size the pool starts at.",
    )
    autoscaling: Autoscaling | None = Field(
        default=None, description="Autoscaling bounds; unset means a fixed-size pool."
    )
    labels: dict[LabelKey, LabelValue] = Field(
        default_factory=dict,
        description="Labels on every node of the pool; experiments select the pool by them.",
    )
    taints: list[Taint] = Field(
        default_factory=_default_taints,
        description="Taints on every node; experiments get matching tolerations.",
    )
    system_disk: SystemDisk = Field(
        default_factory=lambda: SystemDisk.model_validate({}),
        description="System disk of each node (ACK only).",
    )
    nodes: list[NodeName] = Field(
        default_factory=list,
        description="Existing clusters only: names of the GPU nodes to label and taint. "
        "Empty: nodes are left as they are and the pool is only described.",
    )

    @model_validator(mode="after")
    def _sizes(self) -> NodePool:
        scaling = self.autoscaling
        if scaling is not None and scaling.enabled:
            if not scaling.min_size <= self.desired_size <= scaling.max_size:
                raise constraint(
                    "desiredSize",
                    self.desired_size,
                    f"between autoscaling.minSize ({scaling.min_size}) and "
                    f"autoscaling.maxSize ({scaling.max_size})",
                )
        if self.nodes and len(self.nodes) != self.desired_size:
            raise constraint(
                "desiredSize", self.desired_size, f"the number of nodes listed ({len(self.nodes)})"
            )
        if len(set(self.nodes)) != len(self.nodes):
            raise constraint("nodes", self.nodes, "each node name once")
        return self

    @property
    def max_nodes(self) -> int:
        """The most nodes the pool can have (what a job can count on at best)."""
        if self.autoscaling is not None and self.autoscaling.enabled:
            return self.autoscaling.max_size
        return self.desired_size

    @property
    def gpu_capacity(self) -> int:
        """GPUs of the pool at its largest."""
        return self.max_nodes * self.gpus_per_node

    @property
    def cpu_capacity(self) -> Decimal | None:
        """Allocatable CPU of one node, when declared."""
        return None if self.cpu_per_node is None else parse_quantity(self.cpu_per_node)

    @property
    def memory_capacity(self) -> Decimal | None:
        """Allocatable memory of one node in bytes, when declared."""
        return None if self.memory_per_node is None else parse_quantity(self.memory_per_node)
