"""``framework: pytorch``: a PyTorchJob (kubeflow.org/v1), one master (rank 0) and workers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.frameworks.registry import register
from trainstack.frameworks.spec import FrameworkSpec, Role, RolePods

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


def _role_pods(job: TrainingJob) -> list[RolePods]:
    master, worker = job.pytorch.master, job.worker
    master_gpus = worker.gpus if master.gpus is None else master.gpus
    return [
        RolePods("master", "job.pytorch.master", 1, master_gpus, master.resources),
        RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources),
    ]


PYTORCH = register(
    FrameworkSpec(
        name="pytorch",
        kind="PyTorchJob",
        group="kubeflow.org",
        version="v1",
        plural="pytorchjobs",
        replica_specs_key="pytorchReplicaSpecs",
        roles=(
            Role("master", "Master", "pytorch.master", trains=True),
            Role("worker", "Worker", "worker", trains=True),
        ),
        reporting_role="master",
        kueue_integration="kubeflow.org/pytorchjob",
        role_pods=_role_pods,
        summary="PyTorch DDP: PyTorchJob v1",
    )
)
