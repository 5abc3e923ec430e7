"""Settings that only one framework reads: ``mpi``, ``tensorflow`` and ``pytorch``.

The chart ignores the sections of the frameworks not selected by ``framework``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from trainstack.base_model import StrictModel
from trainstack.limits import INT32_MAX
from trainstack.training_job.roles import Chief, Evaluator, Launcher, Master, ParameterServers
from trainstack.training_job.types import AbsolutePath, CountOrText

MpiImplementation = Literal["OpenMPI", "Intel", "MPICH"]
DEFAULT_SSH_PORT = 22
NPROC_PATTERN = r"^(auto|cpu|gpu|[1-9][0-9]*)$"


NprocPerNode = Annotated[
    str,
    CountOrText(
        NPROC_PATTERN,
        minimum=1,
        words="auto, cpu, gpu or a count of at least 1",
        maximum=INT32_MAX,
        max_length=10,
        problem=lambda text: (
            f"a count of at most {INT32_MAX}" if text.isdigit() and int(text) > INT32_MAX else None
        ),
    ),
]
"""Processes per pod for torchrun: auto, cpu, gpu or a count (``4`` or ``"4"``)."""


class MpiSettings(StrictModel):
    """An MPIJob (kubeflow.org/v2beta1): one launcher runs mpirun over SSH into the workers."""

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
    mounts_on_launcher: bool = Field(
        default=True,
        description="Mount the datasets, results and host paths on the launcher too: the "
        "launcher runs the script that sits on the dataset.",
    )
    ssh_port: int = Field(
        default=DEFAULT_SSH_PORT,
        ge=1,
        le=65535,
        description="Port of the workers' sshd. With network.hostNetwork it must not be 22 "
        "(the node's own sshd has it); any other port needs implementation OpenMPI.",
    )
    worker_command: list[str] = Field(
        default_factory=lambda: ["/usr/sbin/sshd", "-De"],
        min_length=1,
        description="Command of the workers (exec form): the v2beta1 launcher reaches them "
        "through sshd. '-p <mpi.sshPort>' is appended when the port is not 22.",
    )
    ssh_auth_mount_path: AbsolutePath = Field(
        default="/root/.ssh",
        description="Where the operator mounts the job's SSH keys: the home of the user the "
        "image runs as (root by default).",
    )
    launcher: Launcher = Field(
        default_factory=Launcher, description="The launcher pod (no GPU, one replica)."
    )


class TensorFlowSettings(StrictModel):
    """A TFJob (kubeflow.org/v1): chief, workers, parameter servers and evaluator."""

    success_policy: Literal["ChiefWorker", "AllWorkers"] = Field(
        default="ChiefWorker",
        description="When the job succeeds: ChiefWorker (the chief, or worker 0 without a "
        "chief) or AllWorkers.",
    )
    chief: Chief = Field(default_factory=Chief, description="The chief replica.")
    ps: ParameterServers = Field(
        default_factory=ParameterServers, description="The parameter servers."
    )
    evaluator: Evaluator = Field(default_factory=Evaluator, description="The evaluator.")


class PyTorchSettings(StrictModel):
    """A PyTorchJob (kubeflow.org/v1): one master (rank 0) and the workers."""

    nproc_per_node: NprocPerNode | None = Field(
        default=None,
        description="Processes per pod for torchrun: auto, cpu, gpu or a number; null leaves "
        "the operator's default.",
    )
    master: Master = Field(default_factory=Master, description="The master replica.")
