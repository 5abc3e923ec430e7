"""Summary lines about the cluster a plan targets: what its nodes really offer, the
acceleration layer, and what deploying it fetches from outside the cluster's region."""

from __future__ import annotations

from trainstack.config.stack import StackConfig
from trainstack.core.quantity import format_quantity


def pool_lines(config: StackConfig) -> list[str]:
    """Each pool: its nodes and GPUs, then per node its capacity and its allocatable (what
    pods can request, which every check uses), with where the allocatable comes from."""
    lines = []
    for pool in config.node_pools:
        line = f"pool {pool.name}: {pool.describe()}"
        allocatable = config.allocatable(pool)
        capacity = [
            f"{format_quantity(amount, binary)}{unit}"
            for amount, binary, unit in (
                (pool.cpu_capacity, False, " CPU"),
                (pool.memory_capacity, True, ""),
            )
            if amount is not None
        ]
        allowed = [
            f"{node.show(binary)}{unit}"
            for node, binary, unit in (
                (allocatable.cpu, False, " CPU"),
                (allocatable.memory, True, ""),
            )
            if node is not None
        ]
        if capacity:
            line += f"; per node: capacity {', '.join(capacity)}"
        if allowed:
            line += f"; allocatable {', '.join(allowed)} ({allocatable.source})"
        elif capacity:
            line += "; allocatable unknown (nothing checked against it)"
        lines.append(line)
        lines += [f"  assumed, not verified: {fact}" for fact in allocatable.assumed]
    return lines
