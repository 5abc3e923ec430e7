"""GpuNodePool: the GPU nodes training runs on, labelled and tainted for GPU work only."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud
import pulumi_kubernetes as k8s

from trainstack.config.cluster import AlicloudCluster, Cluster
from trainstack.config.node_pool import NodePool


@dataclass(frozen=True)
class GpuNodePoolArgs:
    """The pool to declare, the cluster it belongs to and the provider for node patches."""

    pool: NodePool
    cluster: Cluster
    kubernetes: k8s.Provider


class GpuNodePool(pulumi.ComponentResource):
    """An ACK node pool sized for GPU training; on an existing cluster, labels and taints.

    ACK: one ``alicloud.cs.NodePool`` with the instance types, vSwitches, system disk,
    labels, taints, and either a fixed ``desired_size`` or an autoscaling range (the
    autoscaler then owns the size). Existing cluster: nodes cannot be created, so each
    node listed in ``nodePool.nodes`` gets the pool's labels and taints through a
    server-side-apply patch; with no nodes listed nothing is changed on the cluster.
    """

    node_names: pulumi.Output[list[str]]
    node_pool_id: pulumi.Output[str | None]

    def __init__(
        self, name: str, args: GpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:infra:GpuNodePool", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        pool = args.pool
        node_pool_id: pulumi.Input[str | None] = None
        if isinstance(args.cluster, AlicloudCluster):
            node_pool_id = self._ack_pool(name, pool, args.cluster, child).id
        else:
            self._patch_nodes(
                name,
                pool,
                pulumi.ResourceOptions.merge(
                    child, pulumi.ResourceOptions(provider=args.kubernetes)
                ),
            )
        self.node_names = pulumi.Output.from_input(list(pool.nodes))
        self.node_pool_id = pulumi.Output.from_input(node_pool_id)
        self.register_outputs({"node_names": self.node_names, "node_pool_id": self.node_pool_id})

    @staticmethod
    def _ack_pool(
        name: str, pool: NodePool, cluster: AlicloudCluster, opts: pulumi.ResourceOptions
    ) -> alicloud.cs.NodePool:
        scaling = pool.autoscaling if pool.autoscaling and pool.autoscaling.enabled else None
        return alicloud.cs.NodePool(
            f"{name}-pool",
            cluster_id=cluster.cluster_id,
            node_pool_name=pool.name,
            instance_types=list(pool.instance_types),
            vswitch_ids=list(cluster.vswitch_ids),
            # With autoscaling the autoscaler owns the size; a desired size would fight it.
            desired_size=None if scaling else str(pool.desired_size),
            scaling_config=alicloud.cs.NodePoolScalingConfigArgs(
                enable=True, min_size=scaling.min_size, max_size=scaling.max_size, type="gpu"
            )
            if scaling
            else None,
            labels=[
                alicloud.cs.NodePoolLabelArgs(key=key, value=value)
                for key, value in sorted(pool.labels.items())
            ],
            taints=[
                alicloud.cs.NodePoolTaintArgs(key=taint.key, value=taint.value, effect=taint.effect)
                for taint in pool.taints
            ],
            system_disk_category=pool.system_disk.category,
            system_disk_size=pool.system_disk.size_gib,
            opts=opts,
        )

    @staticmethod
    def _patch_nodes(name: str, pool: NodePool, opts: pulumi.ResourceOptions) -> None:
        taints = [
            k8s.core.v1.TaintPatchArgs(key=taint.key, value=taint.value, effect=taint.effect)
            for taint in pool.taints
        ]
        for node in pool.nodes:
            k8s.core.v1.NodePatch(
                f"{name}-{node}",
                metadata=k8s.meta.v1.ObjectMetaPatchArgs(
                    name=node, labels=dict(sorted(pool.labels.items()))
                ),
                spec=k8s.core.v1.NodeSpecPatchArgs(taints=taints),
                opts=opts,
            )
