"""Which node pool each role of a job runs on.

- Roles whose pods have GPUs go to the experiment's GPU pool: the one it names
  (``nodePool`` in the experiment file, or ``trainstack:experiments.nodePools`` of the
  stack), else the stack's first GPU pool.
- Roles without GPUs (the MPI launcher, TF parameter servers and evaluators without
  GPUs, every role of a CPU-only job) go to the stack's first CPU pool. Without a CPU
  pool they are left unpinned: the GPU pool's taint keeps them off GPU nodes, and the
  scheduler puts them wherever else they fit. They are never pinned to a GPU pool.
- A role whose pods the operator makes from another role's template (ack-arena's MPI
  launcher, from the workers') is placed with that role: it has no placement of its own.
- A role is sent to its pool by the pool's labels (``<role>.nodeSelector``) and
  tolerations for its taints (``<role>.tolerations``). A role that sets its own
  ``nodeSelector`` keeps it *instead of* the pool's; a job that sets
  ``scheduling.nodeSelector`` or ``scheduling.tolerations`` places itself entirely.
"""

from __future__ import annotations

from typing import Any

from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.core.values import set_path
from trainstack.training_job import TrainingJob
from trainstack.training_job.frameworks import RolePods, framework


def with_placement(
    job: dict[str, Any], validated: TrainingJob, config: StackConfig, gpu_pool: NodePool | None
) -> dict[str, Any]:
    """``job`` with each role's pool selector and tolerations (see module doc)."""
    scheduling = job.get("scheduling") or {}
    if scheduling.get("nodeSelector") or scheduling.get("tolerations"):
        return job
    spec = framework(validated.framework)
    shared = spec.shared_template(validated)
    placed = job
    for pods in spec.pods(validated):
        if pods.role in shared:
            continue  # its pods come from another role's template (placed with that role)
        values_key = spec.role(pods.role).values_key
        if _lookup(job, f"{values_key}.nodeSelector"):
            continue
        pool = gpu_pool if pods.gpus else config.cpu_pool
        if pool is None:
            continue
        if pool.labels:
            placed = set_path(
                placed, f"{values_key}.nodeSelector", dict(sorted(pool.labels.items()))
            )
        own = list(_lookup(job, f"{values_key}.tolerations") or [])
        added = [t for t in pool.tolerations if t not in own]
        if added:
            placed = set_path(placed, f"{values_key}.tolerations", own + added)
    return placed


def role_pools(
    job: TrainingJob, config: StackConfig, gpu_pool: NodePool | None
) -> list[tuple[RolePods, NodePool | None]]:
    """Each role of ``job`` with the pool its pods land on (``None``: not known).

    A role's pool is the one whose labels its node selector (the job's merged with the
    role's) asks for; a role with GPUs and no such pool lands on the GPU pool anyway.
    """
    spec = framework(job.framework)
    found: list[tuple[RolePods, NodePool | None]] = []
    for pods in spec.pods(job):
        values = spec.role_settings(job, pods.role)
        selector = {**job.scheduling.node_selector, **values.node_selector}
        matching = [
            pool
            for pool in config.node_pools
            if selector
            and all(pool.labels.get(k) == v for k, v in selector.items())
            and (pool.is_gpu or not pods.gpus)
        ]
        if matching:
            found.append((pods, matching[0]))
        else:
            found.append((pods, gpu_pool if pods.gpus else None))
    return found


def _lookup(values: dict[str, Any], dotted: str) -> Any:
    current: Any = values
    for part in dotted.split("."):
        if not isinstance(current, dict):
            return None
        current = current.get(part)
    return current
