"""Cross-field rules of a training job: combinations that each look valid but cannot run.

The chart's ``training-job.validateValues`` helper checks the same rules, in the same
order and with the same words, so that Helm users and trainstack users get one answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from trainstack.frameworks import framework
from trainstack.training_job.frameworks import DEFAULT_SSH_PORT

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

SHM_PATH = "/dev/shm"
MPI_CONFIG_PATH = "/etc/mpi"  # where the mpi-operator mounts the hostfile on the launcher


class Violation(NamedTuple):
    """One broken rule: the key to change (dotted), the value found there, what is allowed."""

    field: str
    found: Any
    allowed: str


def violations(job: TrainingJob) -> list[Violation]:
    """Every broken rule of ``job``, in a fixed order."""
    return [
        *_replica_rules(job),
        *_mpi_rules(job),
        *_dataset_rules(job),
        *_mount_path_rules(job),
        *_operator_api_rules(job),
        *_gang_rules(job),
    ]


def total_pods(job: TrainingJob) -> int:
    """How many pods the job starts (the default gang size)."""
    return sum(pods.replicas for pods in framework(job.framework).pods(job))


def _replica_rules(job: TrainingJob) -> list[Violation]:
    if job.framework == "mpi" and job.worker.replicas < 1:
        return [Violation("worker.replicas", job.worker.replicas, "at least 1 with framework mpi")]
    if (
        job.framework == "tensorflow"
        and job.tensorflow.chief.replicas == 0
        and job.worker.replicas == 0
    ):
        return [
            Violation(
                "worker.replicas",
                job.worker.replicas,
                "at least 1 when tensorflow.chief.replicas is 0 (a TFJob needs a chief or a "
                "worker)",
            )
        ]
    return []


def _mpi_rules(job: TrainingJob) -> list[Violation]:
    if job.framework != "mpi":
        return []
    mpi = job.mpi
    found: list[Violation] = []
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
    if job.run_policy.restart_policy == "ExitCode":
        found.append(
            Violation(
                "runPolicy.restartPolicy",
                job.run_policy.restart_policy,
                "Never or OnFailure with framework mpi",
            )
        )
    return found


def _dataset_rules(job: TrainingJob) -> list[Violation]:
    found: list[Violation] = []
    first: dict[str, int] = {}
    for index, dataset in enumerate(job.datasets):
        if dataset.claim_name in first:
            found.append(
                Violation(
                    f"datasets[{index}].claimName",
                    dataset.claim_name,
                    f"a claim not already in datasets[{first[dataset.claim_name]}] (mount a "
                    "claim once, use subPath for parts of it)",
                )
            )
        else:
            first[dataset.claim_name] = index
    return found


def _normal(path: str) -> str:
    return re.sub(r"/+$", "", path)


def mount_paths(job: TrainingJob) -> list[tuple[str, str]]:
    """(key, mount path) of every container mount, reserved ones first."""
    paths: list[tuple[str, str]] = []
    if job.shm.enabled:
        paths.append(("shm.enabled", SHM_PATH))
    if job.framework == "mpi":
        paths.append(("mpi.sshAuthMountPath", job.mpi.ssh_auth_mount_path))
        paths.append(("the mpi-operator's hostfile", MPI_CONFIG_PATH))
    paths += [(f"datasets[{i}].mountPath", d.mount_path) for i, d in enumerate(job.datasets)]
    if job.results.claim_name is not None:
        paths.append(("results.mountPath", job.results.mount_path))
    paths += [(f"hostPaths[{i}].mountPath", h.mount_path) for i, h in enumerate(job.host_paths)]
    return paths


def _mount_path_rules(job: TrainingJob) -> list[Violation]:
    found: list[Violation] = []
    owner: dict[str, str] = {}
    for key, path in mount_paths(job):
        normal = _normal(path)
        if normal in owner:
            found.append(Violation(key, path, f"a path not already used by {owner[normal]}"))
        else:
            owner[normal] = key
    return found


def _gang_rules(job: TrainingJob) -> list[Violation]:
    gang = job.scheduling.gang
    pods = total_pods(job)
    if gang.enabled and gang.min_available is not None and gang.min_available > pods:
        return [
            Violation(
                "scheduling.gang.minAvailable",
                gang.min_available,
                f"at most {pods}, the pods of the job",
            )
        ]
    return []


def _operator_api_rules(job: TrainingJob) -> list[Violation]:
    """What the older APIs of Arena's operators cannot say (their CRDs would drop it)."""
    if job.operator_api != "arena":
        return []
    found: list[Violation] = []
    if job.framework == "mpi":
        found.append(
            Violation(
                "operatorApi",
                job.operator_api,
                "kubeflow with framework mpi (Arena serves MPIJob v1alpha1, which the chart "
                "does not render)",
            )
        )
    if job.security.seccomp_profile is not None and not job.security.privileged:
        found.append(
            Violation(
                "security.seccompProfile",
                job.security.seccomp_profile,
                "null with operatorApi arena (its CRDs have no seccompProfile: the API server "
                "would drop it)",
            )
        )
    if job.scheduling.gang.enabled:
        found.append(
            Violation(
                "scheduling.gang.enabled",
                True,
                "false with operatorApi arena (its CRDs have no runPolicy.schedulingPolicy)",
            )
        )
    if job.framework == "pytorch" and job.pytorch.nproc_per_node is not None:
        found.append(
            Violation(
                "pytorch.nprocPerNode",
                job.pytorch.nproc_per_node,
                "null with operatorApi arena (its PyTorchJob has no nprocPerNode)",
            )
        )
    return found
