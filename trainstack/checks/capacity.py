"""Does the job fit its node pools? Per pod (one node) and per pool (all its nodes).

Each role is checked against the pool it lands on (see :mod:`trainstack.experiments.placement`): the
GPU roles against the experiment's GPU pool, the roles without GPUs against the CPU pool
when the stack has one. Messages name the pool and its key in the stack file.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.checks.pods import RolePods
from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.core.quantity import format_quantity
from trainstack.experiments import Experiment, role_pools


def capacity_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for pods larger than a node, and for jobs larger than their pools."""
    return [found for e in experiments for found in _capacity(e, config, source)]


def _capacity(experiment: Experiment, config: StackConfig, source: str) -> list[Finding]:
    gpu_pool = config.pool(experiment.pool) if experiment.pool else None
    placed = role_pools(experiment.job, config, gpu_pool)

    def where(pool: NodePool, field: str = "") -> str:
        return f"trainstack:{config.pool_key(pool)}{field} in {source}"

    findings: list[Finding] = []
    for role, pool in placed:
        if pool is None:
            if role.gpus:
                findings.append(
                    _error(
                        experiment,
                        f"{role.key}.gpus",
                        f"{role.gpus} GPUs per {role.role} pod, but the stack has no GPU pool "
                        f"(trainstack:nodePools in {source})",
                    )
                )
            continue
        if role.gpus > pool.gpus_per_node:
            findings.append(
                _error(
                    experiment,
                    f"{role.key}.gpus",
                    f"{role.gpus} GPUs per {role.role} pod, but a node of pool {pool.name} has "
                    f"{pool.gpus_per_node} ({where(pool, '.gpusPerNode')}): the pod can never "
                    "be scheduled",
                )
            )
        for resource, request, capacity, field, binary in (
            ("cpu", role.cpu_request, pool.cpu_capacity, ".cpuPerNode", False),
            ("memory", role.memory_request, pool.memory_capacity, ".memoryPerNode", True),
        ):
            if request is not None and capacity is not None and request > capacity:
                findings.append(
                    _error(
                        experiment,
                        f"{role.key}.resources.requests.{resource}",
                        f"{role.role} pods request {format_quantity(request, binary)} "
                        f"{resource}, but a node of pool {pool.name} has "
                        f"{format_quantity(capacity, binary)} ({where(pool, field)}): the pod "
                        "can never be scheduled",
                    )
                )
    workers = experiment.job.worker.replicas
    worker_pool = next((pool for role, pool in placed if role.role == "worker"), None)
    spread = experiment.job.scheduling.worker_spread == "required"
    if spread and worker_pool is not None and workers > worker_pool.max_nodes:
        findings.append(
            _error(
                experiment,
                "job.scheduling.workerSpread",
                f"required puts each of the {workers} workers on its own node, but pool "
                f"{worker_pool.name} has at most {worker_pool.max_nodes} nodes "
                f"({where(worker_pool)})",
            )
        )
    if findings:
        return findings
    by_pool: dict[str, list[RolePods]] = defaultdict(list)
    pools = {}
    for role, pool in placed:
        if pool is not None and role.gpus:
            by_pool[pool.name].append(role)
            pools[pool.name] = pool
    for name, roles in sorted(by_pool.items()):
        findings += _pool_fits(experiment, roles, pools[name], where(pools[name]))
    return findings


def _pool_fits(
    experiment: Experiment, roles: list[RolePods], pool: NodePool, where: str
) -> list[Finding]:
    """All GPU pods of the job on ``pool``: in total, and packed onto its nodes."""
    # Pods by GPU count, largest first: counted, never listed one by one (replicas may be
    # in the thousands).
    sizes: Counter[int] = Counter()
    for role in roles:
        sizes[role.gpus] += role.replicas
    by_size = sorted(sizes.items(), reverse=True)
    total = sum(gpus * count for gpus, count in by_size)
    if total > pool.gpu_capacity:
        return [
            _error(
                experiment,
                "job.worker.replicas",
                f"the job needs {total} GPUs ({_breakdown(roles)}), but pool {pool.name} has "
                f"at most {pool.gpu_capacity} ({pool.max_nodes} nodes x {pool.gpus_per_node}; "
                f"{where})",
            )
        ]
    if not _packs(by_size, pool.max_nodes, pool.gpus_per_node):
        pods = ", ".join(
            ", ".join([str(gpus)] * count) if count <= 8 else f"{count} x {gpus}"
            for gpus, count in by_size
        )
        return [
            _error(
                experiment,
                "job.worker.gpus",
                f"{total} GPUs fit the {pool.gpu_capacity} of pool {pool.name} in total, but "
                f"pods of {pods} GPUs cannot be placed on "
                f"{pool.max_nodes} nodes of {pool.gpus_per_node} GPUs ({where})",
            )
        ]
    return []


def _packs(by_size: list[tuple[int, int]], nodes: int, per_node: int) -> bool:
    """First-fit decreasing: can pods of these GPU counts (largest first) share the nodes?

    Pods of one size go, in order, into the first node with room; a node that has no
    room for one of them has none for the next, so each size fills the nodes in one pass.
    """
    free = [per_node] * nodes
    for gpus, count in by_size:
        for index in range(nodes):
            if count == 0:
                break
            placed = min(count, free[index] // gpus)
            free[index] -= placed * gpus
            count -= placed
        if count:
            return False
    return True


def _breakdown(roles: list[RolePods]) -> str:
    return " + ".join(f"{r.replicas} {r.role} x {r.gpus}" for r in roles if r.gpus)


def _error(experiment: Experiment, key: str, message: str) -> Finding:
    return Finding(experiment.source, experiment.name, key, message)
