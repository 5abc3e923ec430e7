"""AckNodePool: one ACK node pool (GPU or CPU), sized, labelled, tainted, with a login."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud

from trainstack.config.clusters.alicloud import AckPool, AlicloudCluster
from trainstack.config.node_pool import NodePool

# Stacks made before several pools existed had one GpuNodePool "gpu" with a child
# "gpu-pool": the first GPU pool takes those URNs over, so its nodes are not replaced.
_FORMER_COMPONENT = pulumi.Alias(name="gpu", type_="trainstack:infra:GpuNodePool")
_FORMER_CHILD = pulumi.Alias(name="gpu-pool")


@dataclass(frozen=True)
class AckNodePoolArgs:
    """The pool, its cluster, and whether it takes over the URNs of the former GPU pool."""

    pool: NodePool
    cluster: AlicloudCluster
    former_gpu_pool: bool = False


class AckNodePool(pulumi.ComponentResource):
    """An ``alicloud.cs.NodePool`` of the ACK cluster.

    Instance types, the cluster's vSwitches, system disk, labels, taints, login (an ECS
    key pair, or a password read from the secret config key the stack names: it stays a
    Pulumi secret), and either a fixed ``desired_size`` or an autoscaling range (the
    autoscaler then owns the size, and ``type`` is ``gpu`` or ``cpu`` after the pool).
    """

    node_pool_id: pulumi.Output[str]

    def __init__(
        self, name: str, args: AckNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        aliases = [_FORMER_COMPONENT] if args.former_gpu_pool else []
        super().__init__(
            "trainstack:infra:AckNodePool",
            name,
            None,
            pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(aliases=aliases)),
        )
        child = pulumi.ResourceOptions(
            parent=self, aliases=[_FORMER_CHILD] if args.former_gpu_pool else []
        )
        self.node_pool_id = _node_pool(f"{name}-pool", args.pool, args.cluster, child).id
        self.register_outputs({"node_pool_id": self.node_pool_id})


DRIVER_LABEL = "ack.aliyun.com/nvidia-driver-version"
"""ACK installs the NVIDIA driver this node pool label names on the pool's nodes as they
join (one of the versions ACK lists; an unlisted one falls back to its default):
https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/customize-
the-gpu-driver-version-of-the-node-by-specifying-the-version-number,
https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/ack-
supported-nvidia-driver-version-list."""


def _labels(pool: NodePool) -> dict[str, str]:
    """The pool's labels, and the driver it pins (``nvidiaDriver``)."""
    labels = dict(pool.labels)
    if pool.nvidia_driver is not None:
        labels[DRIVER_LABEL] = pool.nvidia_driver
    return labels


def _node_pool(
    name: str, pool: NodePool, cluster: AlicloudCluster, opts: pulumi.ResourceOptions
) -> alicloud.cs.NodePool:
    scaling = pool.scaling
    ack = AckPool.of(pool)
    login = ack.login
    assert login is not None  # the stack model requires a login on alicloud
    password = None
    if login.password_secret is not None:
        namespace, key = login.password_secret.split(":", 1)
        password = pulumi.Config(namespace).require_secret(key)
    return alicloud.cs.NodePool(
        name,
        cluster_id=cluster.id_input,
        node_pool_name=pool.name,
        instance_types=list(ack.instance_types),
        vswitch_ids=list(cluster.vswitch_ids),
        # With autoscaling the autoscaler owns the size; a desired size would fight it.
        desired_size=None if scaling else str(pool.desired_size),
        scaling_config=alicloud.cs.NodePoolScalingConfigArgs(
            enable=True,
            min_size=scaling.min_size,
            max_size=scaling.max_size,
            type="gpu" if pool.is_gpu else "cpu",
        )
        if scaling
        else None,
        labels=[
            alicloud.cs.NodePoolLabelArgs(key=key, value=value)
            for key, value in sorted(_labels(pool).items())
        ],
        taints=[
            alicloud.cs.NodePoolTaintArgs(key=taint.key, value=taint.value, effect=taint.effect)
            for taint in pool.taints
        ],
        system_disk_category=ack.system_disk.category,
        system_disk_size=ack.system_disk.size_gib,
        key_name=login.key_name,
        password=password,
        opts=opts,
    )
