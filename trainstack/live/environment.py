"""Where a run ran: the facts of the nodes its pods are on, and the operators' versions.

``results collect`` asks, for each job it records, which nodes the job's pods are on
(``spec.nodeName`` of the pods still there) and records those nodes' facts (read the way
``trainstack inspect`` reads them, :mod:`trainstack.live.node_facts`), the API server's
version, each operator's version and the acceleration component, with a digest of it all
but the names of the nodes. The cluster is read once per command, on the first job
recorded: one list of the nodes, one of the Deployments, ``/version``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from trainstack.config.stack import StackConfig
from trainstack.facts.environment import digest, run_view
from trainstack.facts.model import (
    AccelerationFacts,
    KubernetesFacts,
    OperatorFacts,
    RunEnvironment,
    RunNodes,
)
from trainstack.live.api import ApiReader
from trainstack.live.inspect import in_pool, kubernetes_facts, read_nodes
from trainstack.live.node_facts import ObservedNode
from trainstack.live.software import acceleration_facts, operator_facts, read_deployments


class RunEnvironments:
    """The environment of each run ``results collect`` records, from one read of the cluster
    (connected on the first: the deadline counts from there)."""

    def __init__(self, connect: Callable[[], ApiReader], config: StackConfig) -> None:
        self.connect = connect
        self.config = config

    @cached_property
    def reader(self) -> ApiReader:
        return self.connect()

    @cached_property
    def _nodes(self) -> dict[str, ObservedNode]:
        return {node.name: node for node in read_nodes(self.reader)}

    @cached_property
    def _software(self) -> tuple[KubernetesFacts, list[OperatorFacts], AccelerationFacts]:
        kubernetes = kubernetes_facts(self.reader)
        deployments = read_deployments(self.reader)
        return (
            kubernetes,
            operator_facts(self.config, deployments),
            acceleration_facts(self.config, deployments),
        )

    def _pool(self, node: ObservedNode) -> str | None:
        """The first of the stack's pools the node is in."""
        return next((pool.name for pool in self.config.node_pools if in_pool(pool, node)), None)

    def of_pods(self, pods: Sequence[Mapping[str, Any]]) -> RunEnvironment:
        """The environment of a job whose pods (as listed) are ``pods``."""
        names = sorted({name for pod in pods if (name := _node_name(pod))})
        kubernetes, operators, acceleration = self._software
        found = [self._nodes[name] for name in names if name in self._nodes]
        environment = RunEnvironment(
            digest="sha256:" + "0" * 64,
            kubernetes=kubernetes,
            nodes=_groups(found, self._pool),
            gone=[name for name in names if name not in self._nodes],
            operators=operators,
            acceleration=acceleration,
        )
        return environment.model_copy(update={"digest": digest(run_view(environment))})


def _node_name(pod: Mapping[str, Any]) -> str | None:
    name = (pod.get("spec") or {}).get("nodeName")
    return name if isinstance(name, str) and name else None


def _groups(
    nodes: Iterable[ObservedNode], pool_of: Callable[[ObservedNode], str | None]
) -> list[RunNodes]:
    """Nodes grouped by their pool and facts, in a stable order."""
    groups: dict[tuple[str, str], list[ObservedNode]] = {}
    for node in nodes:
        pool = pool_of(node)
        groups.setdefault((pool or "", node.facts.model_dump_json()), []).append(node)
    return [
        RunNodes(pool=pool or None, nodes=sorted(n.name for n in members), facts=members[0].facts)
        for (pool, _), members in sorted(groups.items())
    ]
