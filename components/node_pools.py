"""Which component makes a pool's nodes, one entry per kind of cluster (``provider``).

On ACK a pool is created through its API (:class:`AckNodePool`); on an existing cluster
the nodes exist, and the pool labels and taints them (:class:`ExistingNodes`). A new
kind of cluster adds its entry here and its model in ``trainstack/config/clusters/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from components.ack_node_pool import AckNodePool, AckNodePoolArgs
from components.existing_nodes import ExistingNodes, ExistingNodesArgs
from trainstack.config.clusters.registry import Cluster
from trainstack.config.node_pool import NodePool

PoolMaker = Callable[[NodePool, Any, k8s.Provider, bool], "pulumi.Output[str] | None"]
"""(pool, cluster, Kubernetes provider, takes over the former GPU pool's URNs) -> the
cloud's ID of the pool (``None``: the cluster's nodes have none)."""


def _ack_pool(pool: NodePool, cluster: Any, _: k8s.Provider, former: bool) -> pulumi.Output[str]:
    return AckNodePool(pool.name, AckNodePoolArgs(pool, cluster, former)).node_pool_id


def _existing_nodes(pool: NodePool, _: Any, kubernetes: k8s.Provider, former: bool) -> None:
    ExistingNodes(pool.name, ExistingNodesArgs(pool, kubernetes, former))


POOL_MAKERS: dict[str, PoolMaker] = {"alicloud": _ack_pool, "existing": _existing_nodes}


def node_pool(
    pool: NodePool, cluster: Cluster, kubernetes: k8s.Provider, former_gpu_pool: bool
) -> pulumi.Output[str] | None:
    """The component of ``pool`` on ``cluster``; the pool's ID when the cloud gives one."""
    return POOL_MAKERS[cluster.provider](pool, cluster, kubernetes, former_gpu_pool)
