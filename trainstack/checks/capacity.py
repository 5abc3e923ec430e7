"""Does the job fit its node pools? Per pod (one node) and per pool (all its nodes).

Each role is checked against the pool it lands on (see :mod:`trainstack.experiments.placement`): the
GPU roles against the experiment's GPU pool, the roles without GPUs against the CPU pool
when the stack has one. Messages name the pool and its key where it is written (the
stack file or its cluster template).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.findings import Finding
from trainstack.checks.pods import RolePods
from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.core.quantity import format_quantity
from trainstack.experiments.placement import role_pools
from trainstack.experiments.resolve import Experiment


def capacity_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for pods larger than a node, and for jobs larger than their pools."""
    return [found for e in experiments for found in _capacity(_Placed.of(e, config, source))]


@dataclass(frozen=True)
class _Placed:
    """An experiment's roles, each on the pool its pods land on, and how messages name it."""

    experiment: Experiment
    roles: list[tuple[RolePods, NodePool | None]]
    config: StackConfig
    source: str

    @classmethod
    def of(cls, experiment: Experiment, config: StackConfig, source: str) -> _Placed:
        gpu_pool = config.pool(experiment.pool) if experiment.pool else None
        return cls(experiment, role_pools(experiment.job, config, gpu_pool), config, source)

    def where(self, pool: NodePool, field: str = "") -> str:
        """The pool's key (or one of its fields) where it is written: the stack file or
        its cluster template."""
        return self.config.mention(f"{self.config.pool_key(pool)}{field}", self.source)

    def error(self, key: str, message: str) -> Finding:
        return Finding(self.experiment.source, self.experiment.release_name, key, message)

    def grow(self, pool: NodePool) -> str:
        """The key that gives ``pool`` more nodes."""
        field = ".autoscaling.maxSize" if pool.scaling else ".desiredSize"
        return f"raise {self.where(pool, field)}"


def _gpus_key(role: RolePods) -> str:
    """A role's GPU key, with where its value came from when the file does not set it."""
    key = f"{role.key}.gpus"
    return f"{key} ({role.gpus_default})" if role.gpus_default else key


def _capacity(placed: _Placed) -> list[Finding]:
    """Every pod against a node first; only a job whose pods each fit is summed per pool."""
    per_pod = [
        *_no_gpu_pool(placed),
        *_gpus_per_node(placed),
        *_requests_per_node(placed),
        *_worker_spread(placed),
    ]
    return per_pod or _pool_totals(placed)


def _no_gpu_pool(placed: _Placed) -> list[Finding]:
    """A role with GPUs on a stack without a GPU pool."""
    return [
        placed.error(
            _gpus_key(role),
            f"{role.gpus} GPUs per {role.role} pod, but the stack has no GPU pool "
            f"({placed.config.mention('nodePools', placed.source)}): add a pool with "
            "gpusPerNode there, "
            f"or set {role.key}.gpus: 0",
        )
        for role, pool in placed.roles
        if pool is None and role.gpus
    ]


def _gpus_per_node(placed: _Placed) -> list[Finding]:
    """A pod with more GPUs than a node of its pool has. A role whose count is another's
    by default (a PyTorch master's is ``job.worker.gpus``) is named in that role's error,
    at the key the file writes, not in an error of its own at a derived key."""
    over = [
        (role, pool)
        for role, pool in placed.roles
        if pool is not None and role.gpus > pool.gpus_per_node
    ]
    written = {(role.gpus, pool.name) for role, pool in over if not role.gpus_default}
    findings = []
    for role, pool in over:
        if role.gpus_default and (role.gpus, pool.name) in written:
            continue
        inherited = [
            other.role
            for other, on in over
            if other.gpus_default
            and not role.gpus_default
            and (other.gpus, on.name) == (role.gpus, pool.name)
        ]
        pods = " and ".join([role.role, *inherited])
        also = (
            f" ({', '.join(inherited)}: not set in the file, {role.key}.gpus by default)"
            if inherited
            else ""
        )
        findings.append(
            placed.error(
                _gpus_key(role),
                f"{role.gpus} GPUs per {pods} pod{also}, but a node of pool {pool.name} has "
                f"{pool.gpus_per_node} ({placed.where(pool, '.gpusPerNode')}): the pod can "
                f"never be scheduled; set {role.key}.gpus to at most {pool.gpus_per_node} "
                "(more pods with fewer GPUs each), or run the experiment on a pool of larger "
                "nodes (trainstack:experiments.nodePools)",
            )
        )
    return findings


def _requests_per_node(placed: _Placed) -> list[Finding]:
    """A pod requesting more CPU or memory than pods can request on a node of its pool (the
    node's allocatable, not its capacity: the kubelet keeps the rest)."""
    findings = []
    for role, pool in placed.roles:
        if pool is None:
            continue
        allocatable = placed.config.allocatable(pool)
        for resource, request, node, binary in (
            ("cpu", role.cpu_request, allocatable.cpu, False),
            ("memory", role.memory_request, allocatable.memory, True),
        ):
            if request is None or node is None or request <= node.allocatable:
                continue
            findings.append(
                placed.error(
                    f"{role.key}.resources.requests.{resource}",
                    f"{role.role} pods request {format_quantity(request, binary)} {resource}, "
                    f"but pods can request {node.show(binary)} on a node of pool {pool.name} "
                    f"(its allocatable: {allocatable.why(node, binary)}; "
                    f"{placed.config.mention(node.key, placed.source)}): the pod can never be "
                    f"scheduled; request at most {node.show(binary)} {resource} per pod",
                )
            )
    return findings


def _worker_spread(placed: _Placed) -> list[Finding]:
    """``workerSpread: required`` with more workers than the worker pool has nodes."""
    job = placed.experiment.job
    # The worker pods as the framework counts them (a PyTorch master is not among them).
    worker_role, worker_pool = next(
        ((role, pool) for role, pool in placed.roles if role.role == "worker"), (None, None)
    )
    spread = job.scheduling.worker_spread == "required"
    if not spread or worker_role is None or worker_pool is None:
        return []
    workers = worker_role.replicas
    if workers <= worker_pool.max_nodes:
        return []
    return [
        placed.error(
            "job.scheduling.workerSpread",
            f"required puts each of the {workers} workers on its own node, but pool "
            f"{worker_pool.name} has at most {worker_pool.max_nodes} nodes "
            f"({placed.where(worker_pool)}): use at most {worker_pool.max_nodes} workers, "
            f"{placed.grow(worker_pool)}, or set job.scheduling.workerSpread: preferred",
        )
    ]


def _pool_totals(placed: _Placed) -> list[Finding]:
    """The job's pods on each pool, together: GPUs packed onto its nodes, CPU and memory
    within the pool's allocatable."""
    return [*_pool_gpus(placed), *_pool_requests(placed)]


def _pool_requests(placed: _Placed) -> list[Finding]:
    """The CPU and memory the job's pods request on each pool, against all its nodes."""
    findings = []
    for pool in {pool.name: pool for _, pool in placed.roles if pool is not None}.values():
        roles = [role for role, on in placed.roles if on is pool]
        allocatable = placed.config.allocatable(pool)
        for resource, node, binary in (
            ("cpu", allocatable.cpu, False),
            ("memory", allocatable.memory, True),
        ):
            requests = [
                (role, role.cpu_request if resource == "cpu" else role.memory_request)
                for role in roles
            ]
            total = sum((r.replicas * amount for r, amount in requests if amount), Decimal(0))
            if node is None or total <= node.allocatable * pool.max_nodes:
                continue
            most = node.allocatable * pool.max_nodes
            findings.append(
                placed.error(
                    f"{roles[0].key}.resources.requests.{resource}",
                    f"the job's pods request {format_quantity(total, binary)} {resource} on "
                    f"pool {pool.name} together, but its {pool.max_nodes} nodes let pods "
                    f"request {format_quantity(most, binary)} ({node.show(binary)} each, "
                    f"{allocatable.why(node, binary)}; "
                    f"{placed.config.mention(node.key, placed.source)}): some pods never "
                    "schedule; request less per pod or "
                    "add nodes to the pool",
                )
            )
    return findings


def _pool_gpus(placed: _Placed) -> list[Finding]:
    """The job's GPU pods on each pool, together."""
    by_pool: dict[str, list[RolePods]] = defaultdict(list)
    pools = {}
    for role, pool in placed.roles:
        if pool is not None and role.gpus:
            by_pool[pool.name].append(role)
            pools[pool.name] = pool
    return [
        found
        for name, roles in sorted(by_pool.items())
        for found in _pool_fits(placed, roles, pools[name])
    ]


def _pool_fits(placed: _Placed, roles: list[RolePods], pool: NodePool) -> list[Finding]:
    """All GPU pods of the job on ``pool``: in total, and packed onto its nodes."""
    where = placed.where(pool)
    # Pods by GPU count, largest first: counted, never listed one by one (replicas may be
    # in the thousands).
    sizes: Counter[int] = Counter()
    for role in roles:
        sizes[role.gpus] += role.replicas
    by_size = sorted(sizes.items(), reverse=True)
    total = sum(gpus * count for gpus, count in by_size)
    if total > pool.gpu_capacity:
        return [
            placed.error(
                "job.worker.replicas",
                f"the job needs {total} GPUs ({_breakdown(roles)}), but pool {pool.name} has "
                f"at most {pool.gpu_capacity} ({pool.max_nodes} nodes x {pool.gpus_per_node}; "
                f"{where}): ask for at most {pool.gpu_capacity} GPUs (fewer replicas or GPUs "
                f"per pod), or {placed.grow(pool)}",
            )
        ]
    if not _packs(by_size, pool.max_nodes, pool.gpus_per_node):
        pods = ", ".join(
            ", ".join([str(gpus)] * count) if count <= 8 else f"{count} x {gpus}"
            for gpus, count in by_size
        )
        return [
            placed.error(
                "job.worker.gpus",
                f"{total} GPUs fit the {pool.gpu_capacity} of pool {pool.name} in total, but "
                f"pods of {pods} GPUs cannot be placed on "
                f"{pool.max_nodes} nodes of {pool.gpus_per_node} GPUs ({where}): give each "
                f"pod a GPU count that divides {pool.gpus_per_node}, or {placed.grow(pool)}",
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
    """``1 master x 8 + 2 worker x 8``, with where a count the file does not set came from."""
    return " + ".join(
        f"{r.replicas} {r.role} x {r.gpus}" + (f" ({r.gpus_default})" if r.gpus_default else "")
        for r in roles
        if r.gpus
    )
