"""``framework: mpi``'s section of the values (``mpi:``) and the defaults read from it.

``mounts_on_launcher``: Arena's ``--mounts-on-launcher`` default false (kubeflow/arena
v0.15.5, e30882c143cc2be32b7ed767ae0f78681892741b, pkg/argsbuilder/submit_mpijob.go:75-78).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX
from trainstack.training_job.roles import RoleOverrides
from trainstack.training_job.types import AbsolutePath

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

DEFAULT_SSH_PORT = 22
MPI_CONFIG_PATH = "/etc/mpi"  # where the mpi-operator mounts the hostfile on the launcher
MpiImplementation = Literal["OpenMPI", "Intel", "MPICH"]


class Launcher(RoleOverrides):
    """The MPI launcher: runs ``mpirun`` (the command), one pod, never a GPU."""


class MpiSettings(StrictModel):
    """An MPIJob: one launcher runs mpirun on the workers, over ssh (kubeflow.org/v2beta1)
    or through kubectl exec (ack-arena's kubeflow.org/v1alpha1, operatorApi arena)."""

    implementation: MpiImplementation = Field(
        default="OpenMPI",
        description="MPI implementation in the image: OpenMPI (Horovod, AIACC), Intel or MPICH.",
    )
    slots_per_worker: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="MPI processes per worker; null: worker.gpus (1 when workers have no GPU).",
    )
    mounts_on_launcher: bool | None = Field(
        default=None,
        description="Mount the datasets, results and host paths on the launcher too: the "
        "launcher runs the script that sits on the dataset. null: true (false with "
        "arenaSubmit, arena submit's --mounts-on-launcher default).",
    )
    ssh_port: int = Field(
        default=DEFAULT_SSH_PORT,
        ge=1,
        le=65535,
        description="Port of the workers' sshd. With network.hostNetwork it must not be 22 "
        "(the node's own sshd has it); any other port needs implementation OpenMPI.",
    )
    worker_command: list[str] | None = Field(
        default_factory=lambda: ["/usr/sbin/sshd", "-De"],
        min_length=1,
        description="Command of the workers (exec form): the v2beta1 launcher reaches them "
        "through sshd. '-p <mpi.sshPort>' is appended (to workerArgs when set) when the port "
        "is not 22; null runs the image's ENTRYPOINT, which must start sshd.",
    )
    worker_args: list[str] = Field(
        default_factory=list,
        description="Arguments of the workers' command (the container's args).",
        examples=[["-De", "-f", "/home/mpiuser/.sshd_config"]],
    )
    ssh_auth_mount_path: AbsolutePath = Field(
        default="/root/.ssh",
        description="Where the operator mounts the job's SSH keys: the home of the user the "
        "image runs as (root by default).",
    )
    launcher: Launcher = Field(
        default_factory=Launcher, description="The launcher pod (no GPU, one replica)."
    )


def mounts_on_launcher(job: TrainingJob) -> bool:
    """Whether the MPI launcher mounts the job's data: mpi.mountsOnLauncher, else true
    (false with arenaSubmit)."""
    if job.mpi.mounts_on_launcher is not None:
        return job.mpi.mounts_on_launcher
    return not job.arena_submit


def slots_per_worker(job: TrainingJob) -> int:
    """MPI ranks per worker pod: mpi.slotsPerWorker, else worker.gpus, else 1."""
    return job.mpi.slots_per_worker or max(1, job.worker.gpus)
