"""``framework: mpi``: an MPIJob (kubeflow.org/v2beta1), one launcher running mpirun over SSH.

The launcher only starts ``mpirun``: it trains nothing and never gets a GPU. Facts from
kubeflow/mpi-operator (pkg/apis/kubeflow/v2beta1/default.go, constants.go): the launcher
restarts OnFailure and workers Never by default; the operator mounts the hostfile at
``/etc/mpi`` and the SSH keys at ``sshAuthMountPath`` (default ``/root/.ssh``), and takes
the first container of each pod (no port, no container name of its own). On the launcher
of an Open MPI job it sets ``OMPI_MCA_orte_default_hostfile``, ``OMPI_MCA_plm_rsh_args``,
``OMPI_MCA_orte_keep_fqdn_hostnames`` and ``OMPI_MCA_orte_set_default_slots``
(pkg/controller/mpi_job_controller.go; ``I_MPI_PERHOST`` for Intel MPI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.frameworks.openmpi import shared_memory_warnings
from trainstack.frameworks.registry import register
from trainstack.frameworks.spec import (
    KUBEFLOW_JOB_SETTINGS,
    FrameworkSpec,
    JobWarning,
    Role,
    RolePods,
    Violation,
)

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

DEFAULT_SSH_PORT = 22
MPI_CONFIG_PATH = "/etc/mpi"  # where the mpi-operator mounts the hostfile on the launcher


def _role_pods(job: TrainingJob) -> list[RolePods]:
    worker = job.worker
    return [
        RolePods("launcher", "job.mpi.launcher", 1, 0, job.mpi.launcher.resources),
        RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources),
    ]


def _rules(job: TrainingJob) -> list[Violation]:
    mpi = job.mpi
    found: list[Violation] = []
    if job.worker.replicas < 1:
        found.append(
            Violation("worker.replicas", job.worker.replicas, "at least 1 with framework mpi")
        )
    if job.network.host_network and mpi.ssh_port == DEFAULT_SSH_PORT:
        found.append(
            Violation(
                "mpi.sshPort",
                mpi.ssh_port,
                "a free port other than 22 with network.hostNetwork (the node's sshd has 22), "
                "e.g. 2222",
            )
        )
    if mpi.ssh_port != DEFAULT_SSH_PORT and mpi.implementation != "OpenMPI":
        found.append(
            Violation(
                "mpi.implementation",
                mpi.implementation,
                "OpenMPI when mpi.sshPort is not 22 (the operator overrides the SSH arguments "
                "of Intel MPI and MPICH)",
            )
        )
    if mpi.ssh_port != DEFAULT_SSH_PORT and mpi.worker_command is None and not mpi.worker_args:
        found.append(
            Violation(
                "mpi.workerCommand",
                None,
                "the workers' sshd command when mpi.sshPort is not 22 (the chart appends "
                "-p <port> to it)",
            )
        )
    for key, policy in (
        ("runPolicy.restartPolicy", job.run_policy.restart_policy),
        ("mpi.launcher.restartPolicy", mpi.launcher.restart_policy),
        ("worker.restartPolicy", job.worker.restart_policy),
    ):
        if policy == "ExitCode":
            found.append(Violation(key, policy, "Never or OnFailure with framework mpi"))
    return found


def slots_per_worker(job: TrainingJob) -> int:
    """MPI ranks per worker pod: mpi.slotsPerWorker, else worker.gpus, else 1."""
    return job.mpi.slots_per_worker or max(1, job.worker.gpus)


def _warnings(job: TrainingJob) -> list[JobWarning]:
    if job.mpi.implementation != "OpenMPI":
        return []
    return shared_memory_warnings(job, slots_per_worker(job))


def _reserved_mounts(job: TrainingJob) -> list[tuple[str, str]]:
    return [
        ("mpi.sshAuthMountPath", job.mpi.ssh_auth_mount_path),
        ("the mpi-operator's hostfile", MPI_CONFIG_PATH),
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
            Role(
                "launcher",
                "Launcher",
                "mpi.launcher",
                trains=False,
                container="launcher",
                hostname="-{name}",
            ),
            Role("worker", "Worker", "worker", trains=True, container="worker"),
        ),
        reporting_role="launcher",
        kueue_integration="kubeflow.org/mpijob",
        role_pods=_role_pods,
        summary="Horovod/AIACC over MPI: MPIJob v2beta1",
        settings=KUBEFLOW_JOB_SETTINGS,
        rules=_rules,
        command_has_data=lambda job: job.mpi.mounts_on_launcher,
        warnings=_warnings,
        reserved_mounts=_reserved_mounts,
        injected_env=(
            "OMPI_MCA_orte_default_hostfile",
            "OMPI_MCA_plm_rsh_args",
            "OMPI_MCA_orte_keep_fqdn_hostnames",
            "OMPI_MCA_orte_set_default_slots",
        ),
    )
)
