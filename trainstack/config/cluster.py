"""Where the platform is deployed: an ACK cluster, or any cluster reachable by kubeconfig.

One model per kind of cluster (the ``provider`` key), and each says what differs on it:
whether the cloud's own services are there (node pools created through its API, ACK
add-ons, new NAS file systems, data stacks in its VPC, a kubeconfig fetched from its
API), which kubeconfig context to use, and what a node pool may set
(:meth:`check_pool`). Code asks the stack's cluster instead of testing its kind; the
program's counterpart (which component makes a pool's nodes) is
``components/node_pools.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints

from trainstack.core.base_model import StrictModel, constraint
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

    label: ClassVar[str] = "an ACK cluster"
    cloud_services: ClassVar[bool] = True
    """ACK's API is there: node pools, add-ons, NAS file systems, data stacks, kubeconfig."""

    @property
    def kubeconfig_context(self) -> str | None:
        """The context of the kubeconfig the program fetches from ACK: its current one."""
        return None

    def check_pool(self, key: str, pool: NodePool) -> None:
        """What ACK's node pool API requires (see trainstack.config.alicloud_rules)."""
        if not pool.instance_types:
            raise constraint(
                f"{key}.instanceTypes", [], "at least one ECS instance type on alicloud"
            )
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

    label: ClassVar[str] = "an existing cluster"
    cloud_services: ClassVar[bool] = False

    @property
    def kubeconfig_context(self) -> str | None:
        """The context this stack names (``None``: the kubeconfig's current one)."""
        return self.context

    def check_pool(self, key: str, pool: NodePool) -> None:
        """The nodes exist already: nothing about creating them applies."""
        for field, attribute in (
            ("instanceTypes", "instance_types"),
            ("systemDisk", "system_disk"),
            ("login", "login"),
            ("autoscaling", "autoscaling"),
        ):
            if attribute in pool.model_fields_set:
                raise constraint(
                    f"{key}.{field}",
                    getattr(pool, attribute) if attribute != "system_disk" else "a disk",
                    "nothing on an existing cluster (nodes are not created); list them in "
                    f"{key}.nodes to label and taint them",
                )


Cluster = Annotated[AlicloudCluster | ExistingCluster, Field(discriminator="provider")]
