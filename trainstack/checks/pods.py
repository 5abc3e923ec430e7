"""The pods of a job, role by role, as its framework's registry entry counts them."""

from __future__ import annotations

from trainstack.training_job import TrainingJob
from trainstack.training_job.frameworks import RolePods, framework

__all__ = ["RolePods", "role_pods", "total_gpus"]


def role_pods(job: TrainingJob) -> list[RolePods]:
    """Every role of ``job`` that starts at least one pod."""
    return framework(job.framework).pods(job)


def total_gpus(job: TrainingJob) -> int:
    """GPUs the whole job holds at once."""
    return sum(role.replicas * role.gpus for role in role_pods(job))
