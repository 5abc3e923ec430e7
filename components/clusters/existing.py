"""The program's side of an existing cluster: its nodes exist, a pool labels and taints
the nodes it lists; no cloud's services."""

from __future__ import annotations

import pulumi_kubernetes as k8s

from components.clusters.existing_nodes import ExistingNodes, ExistingNodesArgs
from trainstack.config.clusters.existing import ExistingCluster
from trainstack.config.node_pool import NodePool


def node_pool(pool: NodePool, _: ExistingCluster, kubernetes: k8s.Provider, former: bool) -> None:
    """:class:`ExistingNodes` for the pool's nodes (they have no ID of a cloud's)."""
    ExistingNodes(pool.name, ExistingNodesArgs(pool, kubernetes, former))


def provision(cluster: ExistingCluster) -> ExistingCluster:
    """Nothing to create: the cluster exists."""
    return cluster
