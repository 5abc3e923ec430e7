"""What pods can request on a node of a pool: its allocatable, and where it comes from.

A node's capacity (what its instance type has: ``cpuPerNode``, ``memoryPerNode``) is not
what pods can request: the kubelet keeps a reservation and an eviction threshold. The
allocatable is declared on the pool (``allocatable``), or derived by the cluster's kind
from the capacity (ACK: its documented reservation policy, ``clusters/ack_reservation.py``;
an existing cluster derives nothing and must declare it). :func:`pool_allocatable` is the
one function that answers: plan-time checks, quotas and Kueue's nominal quotas call it,
and observed nodes (``trainstack inspect``) are meant to plug in here.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

from trainstack.core.quantity import format_quantity, parse_quantity

if TYPE_CHECKING:
    from trainstack.config.node_pool import NodePool


@dataclass(frozen=True)
class NodeResource:
    """One resource of one node: what pods can request, and why it is that."""

    allocatable: Decimal
    capacity: Decimal | None
    reserved: Decimal | None
    """What the kind's policy reserves (with the eviction threshold); ``None``: declared."""
    key: str
    """The pool's key it comes from (``nodePools[0].cpuPerNode``, ``...allocatable.cpu``)."""

    def show(self, binary: bool) -> str:
        """``47810m`` or ``364.708Gi``."""
        return format_quantity(self.allocatable, binary)


@dataclass(frozen=True)
class NodeAllocatable:
    """CPU (cores) and memory (bytes) pods can request on one node of a pool."""

    cpu: NodeResource | None
    memory: NodeResource | None
    source: str
    """How it is derived, e.g. ``ACK's resource reservation policy for Kubernetes 1.35
    (<doc URL>)``; empty when nothing is derived."""
    assumed: tuple[tuple[str, str], ...] = ()
    """Inputs taken as defaults that no source documents, each with the pool's key that
    sets it (``nodePools[0].evictionThreshold``): the plan lists them."""

    def why(self, resource: NodeResource, binary: bool) -> str:
        """``capacity 48 - 190m reserved by <source>`` or ``declared``."""
        if resource.reserved is None or resource.capacity is None:
            return "declared"
        capacity = format_quantity(resource.capacity, binary)
        reserved = format_quantity(resource.reserved, binary)
        return f"capacity {capacity} - {reserved} reserved by {self.source}"


NOTHING = NodeAllocatable(None, None, "")


class Deriving(Protocol):
    """A stack's cluster, as far as allocatable goes (``ClusterModel``)."""

    def derived_allocatable(self, pool: NodePool, key: str) -> NodeAllocatable: ...


def pool_allocatable(cluster: Deriving, pool: NodePool, key: str) -> NodeAllocatable:
    """What pods can request on one node of ``pool`` (declared, else derived by the kind).

    ``key`` is the pool's key (``nodePools[0]``). Raises a constraint error naming the key
    to set when the kind cannot derive what the pool's capacity asks for.
    """
    derived = cluster.derived_allocatable(pool, key)
    declared = pool.allocatable
    if declared is None:
        return derived
    cpu, memory = derived.cpu, derived.memory
    if declared.cpu is not None:
        cpu = NodeResource(
            parse_quantity(declared.cpu), pool.cpu_capacity, None, f"{key}.allocatable.cpu"
        )
    if declared.memory is not None:
        memory = NodeResource(
            parse_quantity(declared.memory), pool.memory_capacity, None, f"{key}.allocatable.memory"
        )
    both_declared = declared.cpu is not None and declared.memory is not None
    source = "declared" if both_declared else derived.source or "declared"
    return NodeAllocatable(cpu, memory, source, () if both_declared else derived.assumed)
