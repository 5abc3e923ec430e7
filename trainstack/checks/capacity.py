"""Does the job fit the GPU pool? Per pod (one node) and as a whole (all nodes)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from trainstack.checks.findings import Finding
from trainstack.checks.pods import RolePods, role_pods
from trainstack.config.loader import LoadedStack
from trainstack.experiments.resolve import Experiment
from trainstack.quantity import format_quantity


def capacity_findings(experiment: Experiment, stack: LoadedStack) -> list[Finding]:
    """Errors for pods larger than a node, and for jobs larger than the pool."""
    pool = stack.config.node_pool
    pool_key = f"trainstack:nodePool in {stack.source}"
    findings: list[Finding] = []
    roles = role_pods(experiment.job)
    for role in roles:
        if role.gpus > pool.gpus_per_node:
            findings.append(
                _error(
                    experiment,
                    f"{role.key}.gpus",
                    f"{role.gpus} GPUs per {role.role} pod, but a node of pool {pool.name} has "
                    f"{pool.gpus_per_node} ({pool_key}.gpusPerNode): the pod can never be "
                    "scheduled",
                )
            )
        findings += _node_resource(
            experiment,
            role.key,
            role.role,
            "cpu",
            role.cpu_request,
            pool.cpu_capacity,
            f"{pool_key}.cpuPerNode",
            binary=False,
        )
        findings += _node_resource(
            experiment,
            role.key,
            role.role,
            "memory",
            role.memory_request,
            pool.memory_capacity,
            f"{pool_key}.memoryPerNode",
            binary=True,
        )
    workers = experiment.job.worker.replicas
    if experiment.job.scheduling.worker_spread == "required" and workers > pool.max_nodes:
        findings.append(
            _error(
                experiment,
                "job.scheduling.workerSpread",
                f"required puts each of the {workers} workers on its own node, but pool "
                f"{pool.name} has at most {pool.max_nodes} nodes ({pool_key})",
            )
        )
    if findings:
        return findings
    # Pods by GPU count, largest first: counted, never listed one by one (replicas may be
    # in the thousands).
    sizes: Counter[int] = Counter()
    for role in roles:
        if role.gpus:
            sizes[role.gpus] += role.replicas
    by_size = sorted(sizes.items(), reverse=True)
    total = sum(gpus * count for gpus, count in by_size)
    if total > pool.gpu_capacity:
        findings.append(
            _error(
                experiment,
                "job.worker.replicas",
                f"the job needs {total} GPUs ({_breakdown(roles)}), but pool {pool.name} has "
                f"at most {pool.gpu_capacity} ({pool.max_nodes} nodes x {pool.gpus_per_node}; "
                f"{pool_key})",
            )
        )
    elif not _packs(by_size, pool.max_nodes, pool.gpus_per_node):
        pods = ", ".join(
            ", ".join([str(gpus)] * count) if count <= 8 else f"{count} x {gpus}"
            for gpus, count in by_size
        )
        findings.append(
            _error(
                experiment,
                "job.worker.gpus",
                f"{total} GPUs fit the pool's {pool.gpu_capacity} in total, but pods of "
                f"{pods} GPUs cannot be placed on "
                f"{pool.max_nodes} nodes of {pool.gpus_per_node} GPUs ({pool_key})",
            )
        )
    return findings


def _node_resource(
    experiment: Experiment,
    key: str,
    role: str,
    resource: str,
    request: Decimal | None,
    capacity: Decimal | None,
    capacity_key: str,
    *,
    binary: bool,
) -> list[Finding]:
    if request is None or capacity is None or request <= capacity:
        return []
    shown = format_quantity(request, binary), format_quantity(capacity, binary)
    return [
        _error(
            experiment,
            f"{key}.resources.requests.{resource}",
            f"{role} pods request {shown[0]} {resource}, but a node has {shown[1]} "
            f"({capacity_key}): the pod can never be scheduled",
        )
    ]


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
