"""The pods of a job, role by role, with the key that sets each role's numbers."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from trainstack.quantity import parse_quantity
from trainstack.training_job import TrainingJob
from trainstack.training_job.roles import Resources


@dataclass(frozen=True)
class RolePods:
    """``replicas`` identical pods of one role."""

    role: str
    key: str
    """Dotted key of the role in the experiment's ``job`` (e.g. ``job.worker``)."""
    replicas: int
    gpus: int
    resources: Resources

    @property
    def cpu_request(self) -> Decimal | None:
        """CPU each pod reserves, when set."""
        value = self.resources.requests.cpu
        return None if value is None else parse_quantity(value)

    @property
    def memory_request(self) -> Decimal | None:
        """Memory each pod reserves, when set."""
        value = self.resources.requests.memory
        return None if value is None else parse_quantity(value)


def role_pods(job: TrainingJob) -> list[RolePods]:
    """Every role of ``job`` that starts at least one pod."""
    worker = job.worker
    roles = [RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources)]
    if job.framework == "mpi":
        launcher = job.mpi.launcher
        roles.insert(0, RolePods("launcher", "job.mpi.launcher", 1, 0, launcher.resources))
    elif job.framework == "tensorflow":
        tf = job.tensorflow
        chief_gpus = worker.gpus if tf.chief.gpus is None else tf.chief.gpus
        roles.insert(
            0,
            RolePods(
                "chief", "job.tensorflow.chief", tf.chief.replicas, chief_gpus, tf.chief.resources
            ),
        )
        roles += [
            RolePods("ps", "job.tensorflow.ps", tf.ps.replicas, tf.ps.gpus, tf.ps.resources),
            RolePods(
                "evaluator",
                "job.tensorflow.evaluator",
                tf.evaluator.replicas,
                tf.evaluator.gpus,
                tf.evaluator.resources,
            ),
        ]
    else:
        master = job.pytorch.master
        master_gpus = worker.gpus if master.gpus is None else master.gpus
        roles.insert(0, RolePods("master", "job.pytorch.master", 1, master_gpus, master.resources))
    return [role for role in roles if role.replicas > 0]


def total_gpus(job: TrainingJob) -> int:
    """GPUs the whole job holds at once."""
    return sum(role.replicas * role.gpus for role in role_pods(job))
