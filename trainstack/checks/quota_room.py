"""With queueing, the teams' quotas must fit the stack's pools: Kueue would otherwise admit
jobs for GPUs, CPU or memory that no node has.

A plan-time check rather than a rule of the stack's model, so that shrinking a pool reports
this error together with the experiments that no longer fit (one round, not two), each with
its fix: lower the teams' quotas, or give the pools their nodes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.config.teams import model_share
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.experiments.resolve import Experiment

STACK = "(stack)"
"""The experiment a finding about the stack itself names."""


def quota_room_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for teams' quotas, summed, beyond the stack's pools (with queueing only)."""
    del experiments  # the stack's own rule, checked with them to report in one round
    if not config.queueing.enabled or not config.teams:
        return []
    return [*_gpu_findings(config, source), *_request_findings(config, source)]


def _gpu_findings(config: StackConfig, source: str) -> list[Finding]:
    found = []
    for model, capacity in sorted(config.gpu_capacity_by_model().items()):
        shares = [(team, model_share(team, model)) for team in config.teams]
        total = sum(count for _, count in shares)
        if total <= capacity:
            continue
        listed = ", ".join(f"{team.name} {count}" for team, count in shares)
        keys = ", ".join(
            f"trainstack:{config.team_key(team)}.quota.gpu" for team, count in shares if count
        )
        found.append(
            Finding(
                source,
                STACK,
                "trainstack:teams",
                f"{total} {model} GPUs of quota ({listed}), but the stack's pools have "
                f"{capacity} {model} GPUs at most ({_pools(config, model)}): Kueue would admit "
                f"jobs for GPUs that do not exist; lower the quotas to {capacity} in total "
                f"({keys}, or quota.gpuModels.{model}), or {_grow(config, model, source)}",
            )
        )
    return found


def _request_findings(config: StackConfig, source: str) -> list[Finding]:
    found = []
    for resource, binary in (("cpu", False), ("memory", True)):
        nodes = [(pool, getattr(config.allocatable(pool), resource)) for pool in config.node_pools]
        if any(node is None for _, node in nodes):
            continue  # a pool whose allocatable is unknown: nothing to compare with
        room = sum((node.allocatable * pool.max_nodes for pool, node in nodes), Decimal(0))
        shares = [(team.name, getattr(team.quota, resource)) for team in config.teams]
        quota = sum((parse_quantity(amount) for _, amount in shares), Decimal(0))
        if quota <= room:
            continue
        listed = ", ".join(f"{name} {amount}" for name, amount in shares)
        found.append(
            Finding(
                source,
                STACK,
                "trainstack:teams",
                f"{format_quantity(quota, binary)} {resource} of quota ({listed}), but pods can "
                f"request {format_quantity(room, binary)} {resource} on the stack's pools (their "
                f"nodes' allocatable, not their capacity): Kueue would admit jobs for {resource} "
                f"no node has; lower the teams' quota.{resource} to "
                f"{format_quantity(room, binary)} in total, or {_grow(config, None, source)}",
            )
        )
    return found


def _pools(config: StackConfig, model: str) -> str:
    return ", ".join(
        f"{pool.name}: {pool.max_nodes} nodes x {pool.gpus_per_node}"
        for pool in config.node_pools
        if pool.gpu_model == model
    )


def _grow(config: StackConfig, model: str | None, source: str) -> str:
    """The keys that give the pools (of ``model``, or all) more nodes, where written."""
    keys = [
        config.mention(
            config.pool_key(pool) + (".autoscaling.maxSize" if pool.scaling else ".desiredSize"),
            source,
        )
        for pool in config.node_pools
        if model is None or pool.gpu_model == model
    ]
    return f"add nodes ({', '.join(keys)})"
