"""What a change does to a stack's capacity: per pool its GPUs, CPU and memory before and
after, and per GPU model how much of it the teams' quotas cover.

Read from each side's ``capacity.json`` (:mod:`trainstack.plan.capacity_record`). Under
Kueue a GPU in no team's nominal quota is never admitted: a ClusterQueue admits within its
nominal quota plus what it borrows, and what it borrows is the unused nominal quota of its
cohort (Kueue v0.19.2 site/content/en/docs/concepts/cluster_queue.md L222-243, "Flavors and
borrowing semantics"); such GPUs sit idle, which a scale-up that raises no quota hides.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from trainstack.console.markdown import code_span
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.plan.capacity_record import CapacityFile, PoolCapacity

Pair = tuple[Decimal | None, Decimal | None]


@dataclass(frozen=True)
class PoolChange:
    """One pool whose size or nodes changed: totals at its largest, before and after."""

    pool: str
    gpu_model: str | None
    nodes: Pair
    gpus: Pair
    cpu: Pair
    memory: Pair
    key: str
    """Where its size is written (``FILE: KEY``), on the new side (else the old)."""

    def text(self) -> str:
        """``pool gpu-v100: 16 → 24 V100 GPUs, 192 → 288 CPU, 1472Gi → 2208Gi memory
        (4 → 6 nodes; FILE: KEY)``."""
        model = f" {self.gpu_model}" if self.gpu_model else ""
        parts = [f"{_pair(self.gpus, False)}{model} GPUs"] if any(self.gpus) else []
        if any(self.cpu):
            parts.append(f"{_pair(self.cpu, False)} CPU")
        if any(self.memory):
            parts.append(f"{_pair(self.memory, True)} memory")
        return (
            f"pool {self.pool}: {', '.join(parts) or 'no GPUs'} "
            f"({_pair(self.nodes, False)} nodes; {self.key})"
        )


@dataclass(frozen=True)
class Coverage:
    """The GPUs of one model on the new side, and what the teams' quotas hold of them."""

    gpu_model: str
    gpus: int
    before: int | None
    teams: tuple[tuple[str, int], ...]
    keys: tuple[str, ...]
    queueing: bool

    @property
    def in_quota(self) -> int:
        """The teams' quotas together."""
        return sum(count for _, count in self.teams)

    @property
    def idle(self) -> int:
        """GPUs in no team's quota."""
        return max(self.gpus - self.in_quota, 0)

    def text(self) -> str:
        """``24 V100 GPUs (were 16), 16 in the teams' quotas (vision 10, nlp 6): ...``."""
        was = f" (were {self.before})" if self.before not in (None, self.gpus) else ""
        teams = ", ".join(f"{team} {count}" for team, count in self.teams) or "no team"
        head = f"{self.gpus} {self.gpu_model} GPUs{was}, {self.in_quota} in the teams' quotas"
        if not self.teams:
            return f"{head}: no teams, no quotas"
        if not self.idle:
            return f"{head} ({teams}): every GPU is in a team's quota"
        fix = f"raise a team's quota ({', '.join(self.keys)}) to use them"
        if self.queueing:
            return (
                f"{head} ({teams}): {self.idle} in no team's quota sit idle under Kueue "
                f"(it admits within nominal quotas and lends only those); {fix}"
            )
        return (
            f"{head} ({teams}): {self.idle} in no team's quota, used only by pods outside "
            f"the teams' namespaces; {fix}"
        )


@dataclass(frozen=True)
class CapacityChange:
    """The pools that changed and, for each GPU model, the teams' coverage after."""

    pools: tuple[PoolChange, ...]
    coverage: tuple[Coverage, ...]


def capacity_change(before: CapacityFile | None, after: CapacityFile | None) -> CapacityChange:
    """Every pool whose totals differ; the coverage when a pool or a team's quota changed."""
    old = {p.pool: p for p in (before.pools if before else [])}
    new = {p.pool: p for p in (after.pools if after else [])}
    pools = []
    for name in sorted(old.keys() | new.keys()):
        change = _pool_change(name, old.get(name), new.get(name))
        if change.nodes[0] != change.nodes[1] or _totals(old.get(name)) != _totals(new.get(name)):
            pools.append(change)
    teams_changed = (before.teams if before else []) != (after.teams if after else [])
    coverage: tuple[Coverage, ...] = ()
    if after is not None and (pools or teams_changed):
        coverage = _coverage(after, before)
    return CapacityChange(tuple(pools), coverage)


def _pool_change(name: str, before: PoolCapacity | None, after: PoolCapacity | None) -> PoolChange:
    b, a = _totals(before), _totals(after)
    shown = after or before
    assert shown is not None
    return PoolChange(
        pool=name,
        gpu_model=shown.gpu_model,
        nodes=(b[0], a[0]),
        gpus=(b[1], a[1]),
        cpu=(b[2], a[2]),
        memory=(b[3], a[3]),
        key=shown.key,
    )


def _totals(pool: PoolCapacity | None) -> tuple[Decimal | None, ...]:
    """(nodes, GPUs, CPU, memory) of the pool at its largest; ``None``: no pool, unknown."""
    if pool is None:
        return (None, None, None, None)
    nodes = Decimal(pool.nodes)

    def times(per_node: str | None) -> Decimal | None:
        return None if per_node is None else nodes * parse_quantity(per_node)

    gpus = nodes * pool.gpus_per_node
    return (nodes, gpus, times(pool.cpu_per_node), times(pool.memory_per_node))


def _coverage(after: CapacityFile, before: CapacityFile | None) -> tuple[Coverage, ...]:
    found = []
    for model in sorted({p.gpu_model for p in after.pools if p.gpu_model}):
        teams = tuple((t.team, t.gpus.get(model, 0)) for t in after.teams)
        keys = tuple(t.key for t in after.teams)
        found.append(
            Coverage(
                gpu_model=model,
                gpus=_gpus(after, model),
                before=None if before is None else _gpus(before, model),
                teams=teams,
                keys=keys,
                queueing=after.queueing,
            )
        )
    return tuple(found)


def _gpus(side: CapacityFile, model: str) -> int:
    return sum(p.nodes * p.gpus_per_node for p in side.pools if p.gpu_model == model)


def _pair(pair: Pair, binary: bool) -> str:
    """``16 → 24``; ``none`` for a side without the pool (or without the amount)."""
    return " → ".join(_amount(value, binary) for value in pair)


def _amount(value: Decimal | None, binary: bool) -> str:
    return "none" if value is None else format_quantity(value, binary)


def capacity_lines(change: CapacityChange | None) -> list[str]:
    """The text report's lines: each changed pool, then each GPU model's coverage."""
    if change is None or not (change.pools or change.coverage):
        return []
    lines = ["capacity (pools at their largest; what the teams' quotas cover):"]
    lines += [f"  {pool.text()}" for pool in change.pools]
    lines += [f"  {coverage.text()}" for coverage in change.coverage]
    return lines


def capacity_markdown(change: CapacityChange | None) -> str:
    """The PR comment's capacity paragraph (empty: nothing changed); idle GPUs in a
    ``[!WARNING]`` block."""
    if change is None or not (change.pools or change.coverage):
        return ""
    lines = ["**Capacity** (pools at their largest; what the teams' quotas cover):", ""]
    idle = [c for c in change.coverage if c.idle]
    if idle:
        said = ", ".join(f"{c.idle} {c.gpu_model}" for c in idle)
        fate = " sit idle under Kueue" if any(c.queueing for c in idle) else ""
        lines += [f"> [!WARNING]\n> GPUs in no team's quota{fate}: {said}.", ""]
    lines += [f"- {code_span(pool.text())}" for pool in change.pools]
    lines += [f"- {code_span(coverage.text())}" for coverage in change.coverage]
    return "\n".join(lines) + "\n\n"


def capacity_json(change: CapacityChange | None) -> dict[str, Any] | None:
    """Every figure, before and after (amounts as strings: CPU in cores, memory in bytes)."""
    if change is None:
        return None

    def pair(values: Pair) -> dict[str, str | None]:
        before, after = (None if v is None else f"{v:f}" for v in values)
        return {"before": before, "after": after}

    return {
        "pools": [
            {
                "pool": pool.pool,
                "gpuModel": pool.gpu_model,
                "key": pool.key,
                **{
                    name: pair(values)
                    for name, values in (
                        ("nodes", pool.nodes),
                        ("gpus", pool.gpus),
                        ("cpu", pool.cpu),
                        ("memory", pool.memory),
                    )
                },
            }
            for pool in change.pools
        ],
        "coverage": [
            {
                "gpuModel": c.gpu_model,
                "gpus": c.gpus,
                "gpusBefore": c.before,
                "inQuota": c.in_quota,
                "idle": c.idle,
                "queueing": c.queueing,
                "teams": dict(c.teams),
                "keys": list(c.keys),
            }
            for c in change.coverage
        ],
    }
