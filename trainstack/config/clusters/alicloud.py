"""An existing ACK (Alibaba Cloud Container Service for Kubernetes) cluster.

Its cloud's services are there: node pools created through ACK's API, ACK add-ons, new
NAS file systems and data stacks in its VPC, a kubeconfig fetched from ACK. What ACK's
node pool API requires of a pool is :func:`check_pool`; the Alibaba Cloud provider's
documented rules are in ``alicloud_rules.py``; the program's side is
``components/clusters/alicloud.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints

from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.spec import ClusterKind, ClusterModel
from trainstack.core.base_model import constraint
from trainstack.core.names import PLACEHOLDER_PATTERN

if TYPE_CHECKING:
    from trainstack.config.node_pool import NodePool

RegionId = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z0-9-]+$")]
# IDs a user must look up may be left as placeholders (``<...>``) until deploying.
VpcId = Annotated[str, StringConstraints(pattern=rf"^(vpc-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
VSwitchId = Annotated[str, StringConstraints(pattern=rf"^(vsw-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
AckClusterId = Annotated[
    str, StringConstraints(pattern=rf"^(c[a-z0-9]{{6,}}|{PLACEHOLDER_PATTERN})$")
]


def check_pool(key: str, pool: NodePool) -> None:
    """What ACK's node pool API requires (see ``alicloud_rules.py``)."""
    if not pool.instance_types:
        raise constraint(f"{key}.instanceTypes", [], "at least one ECS instance type on alicloud")
    if pool.nodes:
        raise constraint(
            f"{key}.nodes", pool.nodes, "nothing on alicloud (ACK creates and names the nodes)"
        )
    if pool.login is None:
        raise constraint(
            f"{key}.login",
            None,
            "a login method ACK requires: `{keyName: <ECS key pair>}` or "
            "`{passwordSecret: trainstack:<key>}` naming a secret config key",
        )
    if "taint_policy" in pool.model_fields_set:
        raise constraint(
            f"{key}.taintPolicy",
            pool.taint_policy,
            "nothing on alicloud (ACK taints the nodes)",
        )


KIND = ClusterKind(
    provider="alicloud",
    label="an ACK cluster",
    capabilities=frozenset({"node-api", "addons", "nas", "data-stacks", "kubeconfig-api"}),
    check_pool=check_pool,
    api="ACK",
    offline_invokes={
        "alicloud:cs/getClusterCredential:getClusterCredential": {
            "kubeConfig": "[kubeconfig fetched from ACK at deploy time]",
        },
    },
    identity_keys=frozenset({"clusterId"}),
    data_resources={
        "alicloud:nas/fileSystem:FileSystem": rules.FILE_SYSTEM_REPLACED_BY,
        "alicloud:nas/mountTarget:MountTarget": rules.MOUNT_TARGET_REPLACED_BY,
    },
)


class AlicloudCluster(ClusterModel):
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

    kind: ClassVar[ClusterKind] = KIND

    def network(self) -> dict[str, str]:
        """The VPC and region: NAS mount targets serve their own VPC only."""
        return {"vpcId": self.vpc_id, "region": self.region}
