"""ACK's default node resource reservation: what a node keeps for itself, by Kubernetes version.

Source: ACK, "Resource reservation policy",
https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/resource-reservation-policy
(also https://www.alibabacloud.com/help/zh/doc-detail/330995.htm):

- ``Allocatable = Capacity - Reserved - Eviction threshold``; kubeReserved and
  systemReserved are half of the reservation each; custom reservation needs 1.20 or later.
- CPU, Kubernetes 1.28 and later: 6 % of the first core, 1 % of the second, 0.5 % of the
  third and fourth, 0.25 % of every core above four (the doc's example: 32 cores -> 150m).
- CPU, 1.20 to 1.27: 100m for the first four cores, then 2.5 % of cores 4-64 (the doc's
  example: 32 cores -> 800m); 1.25 % of cores 64-128 and 0.5 % above 128, read from the
  doc's table (128 cores -> 2400m, 256 -> 3040m).
- Memory, 1.28 and later: ``min(11 x max pods + 255, 25 % of the node's memory)`` MiB (the
  doc's example: 213 pods -> 2598 MiB).
- Memory, 1.20 to 1.27: 25 % of the first 4 GiB, 20 % of 4-8, 10 % of 8-16, 6 % of 16-128,
  2 % above 128 (the doc's example: 256 GiB -> 11.88 GiB).
- The eviction threshold is not documented there (the page links to Kubernetes'
  node-pressure eviction). The doc's own 4-core node (capacity 7925980Ki, allocatable
  5824732Ki and 3900m) is exactly the 1.20-1.27 reservation plus 300Mi: 300Mi is the
  default here, **inferred, not documented**; the plan says so and a pool overrides it.

Memory reserved is rounded up, allocatable memory down, to a whole MiB, so that an
allocatable is never above what ACK's own table gives (its rows are whole MiB).
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import TYPE_CHECKING

from trainstack.config.capacity import NOTHING, NodeAllocatable, NodeResource
from trainstack.core.base_model import constraint
from trainstack.core.quantity import format_quantity, parse_quantity

if TYPE_CHECKING:
    from trainstack.config.node_pool import NodePool

DOC = (
    "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/"
    "resource-reservation-policy"
)
MIB = Decimal(1024 * 1024)
GIB = MIB * 1024
EVICTION_THRESHOLD = Decimal(300) * MIB
"""Memory the kubelet keeps free before evicting, assumed when a pool sets none (inferred
from the doc's example above; not documented)."""
OLDEST = (1, 20)
NEW_POLICY = (1, 28)


def _tiers(amount: Decimal, tiers: list[tuple[Decimal, Decimal]]) -> Decimal:
    """Sum of ``rate`` x the part of ``amount`` in each tier (tiers: (upper bound, rate),
    in order, the last one open-ended with bound -1)."""
    total, lower = Decimal(0), Decimal(0)
    for upper, rate in tiers:
        top = amount if upper < 0 else min(amount, upper)
        if top > lower:
            total += (top - lower) * rate
        lower = upper
        if upper < 0 or amount <= upper:
            break
    return total


def reserved_cpu(cores: Decimal, version: tuple[int, int]) -> Decimal:
    """CPU cores ACK reserves on a node of ``cores`` at Kubernetes ``version``."""
    if version >= NEW_POLICY:
        rates = [
            (Decimal(1), Decimal("0.06")),
            (Decimal(2), Decimal("0.01")),
            (Decimal(4), Decimal("0.005")),
            (Decimal(-1), Decimal("0.0025")),
        ]
        return _tiers(cores, rates)
    rates = [
        (Decimal(4), Decimal(0)),
        (Decimal(64), Decimal("0.025")),
        (Decimal(128), Decimal("0.0125")),
        (Decimal(-1), Decimal("0.005")),
    ]
    return Decimal("0.1") + _tiers(cores, rates)


def reserved_memory(memory: Decimal, version: tuple[int, int], max_pods: int | None) -> Decimal:
    """Bytes ACK reserves on a node of ``memory`` bytes (whole MiB, rounded up);
    ``max_pods`` is needed from 1.28."""
    if version >= NEW_POLICY:
        if max_pods is None:
            raise ValueError("the memory reservation of Kubernetes 1.28+ needs max pods")
        mib = min(Decimal(11 * max_pods + 255), memory / MIB / 4)
    else:
        gib = memory / GIB
        rates = [
            (Decimal(4), Decimal("0.25")),
            (Decimal(8), Decimal("0.2")),
            (Decimal(16), Decimal("0.1")),
            (Decimal(128), Decimal("0.06")),
            (Decimal(-1), Decimal("0.02")),
        ]
        mib = _tiers(gib, rates) * 1024
    return Decimal(math.ceil(mib)) * MIB


def whole_mib(memory: Decimal) -> Decimal:
    """``memory`` rounded down to a whole MiB."""
    return Decimal(math.floor(memory / MIB)) * MIB


def allocatable(
    version: tuple[int, int] | None, written: str | None, pool: NodePool, key: str
) -> NodeAllocatable:
    """What ACK's default reservation leaves to pods on a node of ``pool`` at Kubernetes
    ``version`` (``written`` as the stack gives it), from the capacity the pool declares;
    what the pool declares in ``allocatable`` is not derived (``trainstack.config.capacity``
    puts it over this). Raises a constraint error naming the key to set."""
    declared = pool.allocatable
    derive_cpu = pool.cpu_per_node is not None and (declared is None or declared.cpu is None)
    derive_memory = pool.memory_per_node is not None and (
        declared is None or declared.memory is None
    )
    if not (derive_cpu or derive_memory):
        return NOTHING
    if version is None or version < OLDEST:
        raise constraint(
            "cluster.kubernetesVersion",
            written,
            f"the cluster's Kubernetes version, 1.20 or later (e.g. `1.35`; console: Cluster "
            f"information): ACK reserves part of each node by version ({DOC}), so "
            f"what pods can request on pool {pool.name} depends on it; or declare "
            f"{key}.allocatable",
        )
    cpu = memory = None
    if derive_cpu:
        capacity = pool.cpu_capacity
        assert capacity is not None
        reserved = reserved_cpu(capacity, version)
        cpu = NodeResource(capacity - reserved, capacity, reserved, f"{key}.cpuPerNode")
    assumed: tuple[tuple[str, str], ...] = ()
    if derive_memory:
        if version >= NEW_POLICY and pool.max_pods is None:
            raise constraint(
                f"{key}.maxPods",
                None,
                "the nodes' maximum pods (ACK console: Nodes page): from Kubernetes 1.28 "
                f"ACK's memory reservation grows with it ({DOC}); or declare "
                f"{key}.allocatable.memory",
            )
        capacity = pool.memory_capacity
        assert capacity is not None
        eviction = EVICTION_THRESHOLD
        if pool.eviction_threshold is not None:
            eviction = parse_quantity(pool.eviction_threshold)
        else:
            assumed = (
                (
                    f"eviction threshold {format_quantity(eviction)} on pool {pool.name}: ACK "
                    "documents none, inferred from its own example",
                    f"{key}.evictionThreshold",
                ),
            )
        reserved = reserved_memory(capacity, version, pool.max_pods)
        allocatable = whole_mib(capacity - reserved - eviction)
        memory = NodeResource(allocatable, capacity, capacity - allocatable, f"{key}.memoryPerNode")
    pods = f", max pods {pool.max_pods}" if pool.max_pods and version >= NEW_POLICY else ""
    source = (
        f"ACK's resource reservation policy for Kubernetes {version[0]}.{version[1]}{pods}, {DOC}"
    )
    return NodeAllocatable(cpu, memory, source, assumed)
