"""``trainstack inspect STACK``: read the stack's cluster into its facts (``facts/STACK.json``).

The requests, whatever the cluster's size: ``GET /version``; the nodes, one list of
every node, page by page (``GET /api/v1/nodes?limit=500``: two requests for 1,000
nodes), matched to the stack's pools here by each pool's labels; the Deployments, one
list; one ``GET`` per CRD the stack's jobs use; Kueue's ConfigMap when the stack queues.
Nothing is written to the cluster; nothing is written here until everything was read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lightkube.generic_resource import create_global_resource

from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.experiments.lookup import StackRuns
from trainstack.facts.model import (
    KubernetesFacts,
    NodeGroup,
    PoolFacts,
    StackFacts,
)
from trainstack.live.api import ApiReader
from trainstack.live.node_facts import ObservedNode, observed_node, text
from trainstack.live.software import (
    acceleration_facts,
    crd_facts,
    kueue_facts,
    operator_facts,
    read_deployments,
)
from trainstack.training_job.frameworks import framework

NODES = create_global_resource("", "v1", "Node", "nodes")


def read_nodes(reader: ApiReader) -> list[ObservedNode]:
    """Every node of the cluster with its facts (``GET /api/v1/nodes``, paged)."""
    return reader.list(NODES, "listing nodes", observed_node)


def kubernetes_facts(reader: ApiReader) -> KubernetesFacts:
    """The API server's version."""
    version = reader.version()
    with reader.errors("reading the server's version (/version)"):
        return KubernetesFacts(
            git_version=text(version.get("gitVersion"), "gitVersion"),
            platform=text(version.get("platform"), "platform"),
        )


def groups(nodes: Iterable[ObservedNode]) -> list[NodeGroup]:
    """Nodes grouped by their facts: the largest group first, then by facts (stable)."""
    by_facts: dict[str, list[ObservedNode]] = {}
    for node in nodes:
        by_facts.setdefault(node.facts.model_dump_json(), []).append(node)
    found = [
        NodeGroup(count=len(members), nodes=sorted(n.name for n in members), facts=members[0].facts)
        for members in by_facts.values()
    ]
    return sorted(found, key=lambda group: (-group.count, group.facts.model_dump_json()))


def in_pool(pool: NodePool, node: ObservedNode) -> bool:
    """Whether ``node`` carries every label ``pool`` declares (none: no node is)."""
    return bool(pool.labels) and all(node.labels.get(k) == v for k, v in pool.labels.items())


def pool_members(
    config: StackConfig, nodes: Sequence[ObservedNode]
) -> dict[str, list[ObservedNode]]:
    """The nodes of each pool (a node can match several)."""
    return {
        pool.name: [node for node in nodes if in_pool(pool, node)] for pool in config.node_pools
    }


def job_crds(resolved: StackRuns) -> list[str]:
    """The CRDs of the kinds the stack's experiments run as."""
    return sorted({framework(run.job.framework).crd for run in resolved.runs})


def inspect_stack(reader: ApiReader, resolved: StackRuns) -> StackFacts:
    """Everything ``facts/STACK.json`` holds, read from the cluster."""
    config = resolved.stack.config
    kubernetes = kubernetes_facts(reader)
    nodes = read_nodes(reader)
    members = pool_members(config, nodes)
    pooled = {node.name for found in members.values() for node in found}
    deployments = read_deployments(reader)
    pools = [
        PoolFacts(
            name=pool.name,
            labels=dict(pool.labels),
            node_count=len(members[pool.name]),
            groups=groups(members[pool.name]),
        )
        for pool in config.node_pools
    ]
    return StackFacts(
        format="trainstack-facts/1",
        stack=resolved.stack.name,
        kubernetes=kubernetes,
        pools=pools,
        other_nodes=groups(node for node in nodes if node.name not in pooled),
        operators=operator_facts(config, deployments),
        crds=crd_facts(reader, job_crds(resolved)),
        kueue=kueue_facts(reader, config),
        acceleration=acceleration_facts(config, deployments),
    )
