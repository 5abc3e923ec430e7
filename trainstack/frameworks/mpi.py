"""``framework: mpi``: an MPIJob (kubeflow.org/v2beta1), one launcher running mpirun over SSH.

The launcher only starts ``mpirun``: it trains nothing and never gets a GPU.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.frameworks.registry import register
from trainstack.frameworks.spec import FrameworkSpec, Role, RolePods

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


def _role_pods(job: TrainingJob) -> list[RolePods]:
    worker = job.worker
    return [
        RolePods("launcher", "job.mpi.launcher", 1, 0, job.mpi.launcher.resources),
        RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources),
    ]


MPI = register(
    FrameworkSpec(
        name="mpi",
        kind="MPIJob",
        group="kubeflow.org",
        version="v2beta1",
        plural="mpijobs",
        replica_specs_key="mpiReplicaSpecs",
        roles=(
            Role("launcher", "Launcher", "mpi.launcher", trains=False, indexed=False),
            Role("worker", "Worker", "worker", trains=True),
        ),
        reporting_role="launcher",
        kueue_integration="kubeflow.org/mpijob",
        role_pods=_role_pods,
        summary="Horovod/AIACC over MPI: MPIJob v2beta1",
    )
)
