"""``capacity.json`` of a plan directory: what the stack's pools offer and what the teams'
quotas cover, as ``trainstack diff`` shows the consequences of a change.

A pull request that scales a pool changes ``desiredSize: 4 -> 6``; what a reviewer needs
is "16 -> 24 V100 GPUs" and whether any team can use them: under Kueue a GPU in no team's
nominal quota is never admitted (a cohort lends only nominal quota), so it sits idle.
Written by ``trainstack plan`` for cluster stacks; a plan without it (an earlier
trainstack, a data stack) shows no capacity change. Unknown fields are ignored.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from trainstack.config.stack import StackConfig
from trainstack.config.teams import model_share

CAPACITY_JSON = "capacity.json"
Text = Annotated[str, msgspec.Meta(max_length=1024)]


class PoolCapacity(msgspec.Struct, frozen=True, rename="camel"):
    """One pool at its largest: nodes, and per node its GPUs, CPU and memory (capacity)."""

    pool: Text
    nodes: int
    gpus_per_node: int
    gpu_model: Text | None = None
    cpu_per_node: Text | None = None
    """As declared (``"48"``); ``None``: not declared."""
    memory_per_node: Text | None = None
    """As declared (``368Gi``); ``None``: not declared."""
    key: Text = ""
    """Where the pool's size is written (``FILE: KEY``)."""


class TeamQuota(msgspec.Struct, frozen=True, rename="camel"):
    """The GPUs of each model a team's own (nominal) quota holds."""

    team: Text
    gpus: dict[Text, int] = {}
    key: Text = ""
    """Where the team's GPU quota is written (``FILE: KEY``)."""


class CapacityFile(msgspec.Struct, frozen=True, rename="camel"):
    """``capacity.json``."""

    stack: Text
    queueing: bool = False
    pools: list[PoolCapacity] = []
    teams: list[TeamQuota] = []


def capacity_file(stack: str, config: StackConfig, source: str) -> CapacityFile:
    """What ``capacity.json`` holds for a cluster stack's configuration."""
    models = config.gpu_models()
    return CapacityFile(
        stack=stack,
        queueing=config.queueing.enabled,
        pools=[
            PoolCapacity(
                pool=pool.name,
                nodes=pool.max_nodes,
                gpus_per_node=pool.gpus_per_node,
                gpu_model=pool.gpu_model,
                cpu_per_node=pool.cpu_per_node,
                memory_per_node=pool.memory_per_node,
                key=config.mention(
                    config.pool_key(pool)
                    + (".autoscaling.maxSize" if pool.scaling else ".desiredSize"),
                    source,
                ),
            )
            for pool in config.node_pools
        ],
        teams=[
            TeamQuota(
                team=team.name,
                gpus={model: model_share(team, model) for model in models},
                key=config.mention(f"{config.team_key(team)}.quota.gpu", source),
            )
            for team in config.teams
        ],
    )
