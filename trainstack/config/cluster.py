"""Where the platform is deployed: an ACK cluster, or any cluster reachable by kubeconfig."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from trainstack.base_model import StrictModel
from trainstack.config.placeholders import PLACEHOLDER_PATTERN

RegionId = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z0-9-]+$")]
# IDs a user must look up may be left as placeholders (``<...>``) until deploying.
VpcId = Annotated[str, StringConstraints(pattern=rf"^(vpc-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
VSwitchId = Annotated[str, StringConstraints(pattern=rf"^(vsw-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
AckClusterId = Annotated[
    str, StringConstraints(pattern=rf"^(c[a-z0-9]{{6,}}|{PLACEHOLDER_PATTERN})$")
]


class AlicloudCluster(StrictModel):
    """An existing ACK (Alibaba Cloud Container Service for Kubernetes) cluster."""

    provider: Literal["alicloud"] = Field(
        description="`alicloud`: an existing ACK cluster; the GPU node pool and NAS file "
        "systems are created through the Alibaba Cloud API."
    )
    cluster_id: AckClusterId = Field(
        description="ID of the ACK cluster (console: Cluster information > Basic information)."
    )
    region: RegionId = Field(description="Region of the cluster, e.g. `cn-beijing`.")
    vpc_id: VpcId = Field(description="VPC of the cluster; NAS mount targets are created in it.")
    vswitch_ids: list[VSwitchId] = Field(
        min_length=1,
        description="vSwitches the GPU nodes are placed in (their zones must offer the "
        "instance types). The first one also hosts NAS mount targets unless a dataset names "
        "its own.",
    )


class ExistingCluster(StrictModel):
    """Any conformant cluster (on-premises, other clouds) reachable through a kubeconfig."""

    provider: Literal["existing"] = Field(
        description="`existing`: any cluster reachable through a kubeconfig; nodes are not "
        "created, only labelled and tainted when `nodePool.nodes` lists them."
    )
    context: str | None = Field(
        default=None,
        description="kubeconfig context to use. With the `trainstack:kubeconfig` secret it "
        "selects a context in it; without it, a context of the deployer's own kubeconfig "
        "(`$KUBECONFIG` or `~/.kube/config`). Unset: the current context.",
    )


Cluster = Annotated[AlicloudCluster | ExistingCluster, Field(discriminator="provider")]
