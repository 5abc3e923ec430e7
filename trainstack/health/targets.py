"""Which nodes and multi-node shapes ``trainstack health`` checks.

The pools are those the stack's experiments run their GPU pods in (each run's pool);
without experiments on GPUs, every GPU pool. Every node of those pools is checked, or
only the ``--node`` named. A shape is a run's GPU pods across more than one pod (4
workers x 4 GPUs): one interconnect test per distinct shape, as the experiments span it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.core.errors import TrainstackError
from trainstack.experiments.lookup import StackRuns
from trainstack.health.jobs import Span, Target
from trainstack.training_job.frameworks import framework


def used_pools(resolved: StackRuns) -> list[NodePool]:
    """The GPU pools the stack's experiments use, in the stack's order."""
    config = resolved.stack.config
    named = {run.pool for run in resolved.runs if run.pool}
    pools = [pool for pool in config.node_pools if pool.is_gpu and pool.name in named]
    return pools or [pool for pool in config.node_pools if pool.is_gpu]


def spans(resolved: StackRuns, pools: Sequence[NodePool]) -> list[Span]:
    """Each multi-node shape of the runs (GPU pods > 1), once, by name."""
    by_pool = {pool.name: pool for pool in pools}
    found: dict[tuple[str, int, int], list[str]] = {}
    for run in resolved.runs:
        pool = by_pool.get(run.pool or "")
        if pool is None:
            continue
        for pods in framework(run.job.framework).pods(run.job):
            if pods.gpus and pods.replicas > 1:
                key = (pool.name, pods.replicas, pods.gpus)
                found.setdefault(key, []).append(run.point_name)
    return [
        Span(by_pool[name], count, gpus, tuple(sorted(set(names))))
        for (name, count, gpus), names in sorted(found.items())
    ]


def node_targets(
    pools: Sequence[NodePool], members: Mapping[str, Sequence[str]], wanted: Sequence[str]
) -> list[Target]:
    """The nodes to check: every member of each pool, or only those ``wanted``
    (``--node``); a wanted node of no pool is an error naming the pools' nodes."""
    targets = [Target(node, pool) for pool in pools for node in sorted(members.get(pool.name, ()))]
    if not wanted:
        return targets
    known = {target.node for target in targets}
    unknown = sorted(set(wanted) - known)
    if unknown:
        shown = ", ".join(sorted(known)[:10]) or "none"
        more = f" and {len(known) - 10} more" if len(known) > 10 else ""
        raise TrainstackError(
            f"--node: found {', '.join(unknown)}; allowed: nodes of the pools the stack's "
            f"experiments use ({', '.join(pool.name for pool in pools)}): {shown}{more}"
        )
    return [target for target in targets if target.node in set(wanted)]


def offline_members(config: StackConfig, pools: Sequence[NodePool]) -> dict[str, list[str]]:
    """Node names without a cluster: a pool's declared ``nodes``, else one placeholder per
    node it has at its largest (``<node 1 of pool gpu-v100>``)."""
    return {
        pool.name: list(pool.nodes)
        or [f"<node {index} of pool {pool.name}>" for index in range(1, pool.max_nodes + 1)]
        for pool in pools
    }
