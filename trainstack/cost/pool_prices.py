"""The price of a node of each pool: the stack's entries first, then its cluster kind's list.

A pool priced as a whole (``trainstack:cost.prices[].pool``) takes that entry. A pool of
instance types takes, for each type, the stack's entry for the cluster's region, else
its entry for every region, else the kind's (in that order, when the kind's list is in
the stack's currency). The cloud may start any of a pool's instance types, so a pool
of several is priced at the highest of theirs, and only when every one has a price.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.config.node_pool import NodePool
from trainstack.config.prices import NodePrice
from trainstack.config.stack import StackConfig
from trainstack.cost.money import exact


@dataclass(frozen=True)
class Used:
    """A price entry a pool is priced with, and where it is written."""

    entry: NodePrice
    where: str
    """``trainstack:cost.prices[1]`` or the kind's module."""


@dataclass(frozen=True)
class PoolPrice:
    """One pool, its size and what a node of it costs per hour."""

    pool: str
    nodes: int
    """Nodes at the pool's size (``desiredSize``): what runs, idle or not."""
    max_nodes: int
    """Nodes at most (autoscaling's ``maxSize``)."""
    gpus_per_node: int
    instance_types: tuple[str, ...]
    used: tuple[Used, ...]
    """The entries that price it (one per instance type, or the pool's own)."""
    missing: str = ""
    """Why it has no price ("" when it has one)."""

    @property
    def per_node(self) -> Decimal | None:
        """A node's price per hour: the highest of its entries' (``None``: unknown)."""
        figures = [used.entry.figure for used in self.used]
        if self.missing or not figures or any(figure is None for figure in figures):
            return None
        return max(figure for figure in figures if figure is not None)

    @property
    def varies(self) -> bool:
        """Its instance types cost differently: :attr:`per_node` is the highest."""
        return len({used.entry.figure for used in self.used}) > 1

    @property
    def spot(self) -> Decimal | None:
        """The highest spot price of its entries, when each has one."""
        figures = [used.entry.spot for used in self.used]
        if not figures or any(figure is None for figure in figures):
            return None
        return max(figure for figure in figures if figure is not None)

    @property
    def per_hour(self) -> Decimal | None:
        """The pool at its size, per hour."""
        per_node = self.per_node
        return None if per_node is None else exact(per_node, self.nodes)

    @property
    def per_gpu_hour(self) -> Decimal | None:
        """One GPU of the pool for an hour: a node's price over its GPUs."""
        per_node = self.per_node
        if per_node is None or not self.gpus_per_node:
            return None
        return exact(per_node, per=self.gpus_per_node)

    @property
    def unpriced(self) -> str:
        """Why it has no price ("" when it has one)."""
        pending = self.placeholders
        if self.missing or not pending:
            return self.missing
        return f"the price of {pending[0].entry.subject} is a placeholder (set before deploying)"

    @property
    def placeholders(self) -> list[Used]:
        """The entries whose figure is still a placeholder."""
        return [used for used in self.used if used.entry.figure is None]


def currency_of(config: StackConfig) -> str | None:
    """The stack's currency: its own, else its cluster kind's price list's."""
    return config.cost.currency or config.cluster.kind.prices.currency


def pool_prices(config: StackConfig) -> list[PoolPrice]:
    """Every pool of the stack with what a node of it costs, in the stack's currency."""
    return [_priced(config, pool) for pool in config.node_pools]


def _priced(config: StackConfig, pool: NodePool) -> PoolPrice:
    def made(used: Sequence[Used], missing: str = "") -> PoolPrice:
        return PoolPrice(
            pool=pool.name,
            nodes=pool.desired_size,
            max_nodes=pool.max_nodes,
            gpus_per_node=pool.gpus_per_node,
            instance_types=tuple(pool.instance_types),
            used=tuple(used),
            missing=missing,
        )

    own = [
        Used(price, f"trainstack:cost.prices[{index}]")
        for index, price in enumerate(config.cost.prices)
    ]
    whole = next((used for used in own if used.entry.pool == pool.name), None)
    if whole is not None:
        return made([whole])
    kind = config.cluster.kind.prices
    if not pool.instance_types:
        return made([], f"pool {pool.name} has no instance type: {kind.without}")
    listed = [Used(price, kind.module) for price in kind.entries]
    without = kind.without
    currency = currency_of(config)
    if listed and kind.currency != currency:
        # The kind's figures are in another currency: they do not count, and none is
        # converted (a rate is no price anybody published).
        listed = []
        without = (
            f"the cluster kind's price list is in {kind.currency}, the stack counts in "
            f"{currency}: add the price in {currency} to trainstack:cost.prices"
        )
    region = config.cluster.network().get("region")
    used: list[Used] = []
    for instance_type in pool.instance_types:
        found = _entry(own, instance_type, region) or _entry(listed, instance_type, region)
        if found is None:
            where = f" in {region}" if region else ""
            return made(used, f"{instance_type}{where}: {without}")
        used.append(found)
    return made(used)


def _entry(entries: Sequence[Used], instance_type: str, region: str | None) -> Used | None:
    """The entry for ``instance_type`` in ``region``, else the one for every region."""
    matching = [used for used in entries if used.entry.instance_type == instance_type]
    exact_region = next((used for used in matching if used.entry.region == region), None)
    return exact_region or next((used for used in matching if used.entry.region is None), None)
