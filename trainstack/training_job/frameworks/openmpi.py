"""What Open MPI needs from a pod that runs several ranks: a warning both MPI frameworks give.

Open MPI's shared-memory transport (the ``vader``/``sm`` BTL) copies between the ranks of
one node with cross-memory attach, ``process_vm_readv``/``process_vm_writev``: the kernel
allows them like ``ptrace``, and in containers, under the runtime's default seccomp profile
and Yama's ptrace scope, that usually takes ``CAP_SYS_PTRACE`` (open-mpi/ompi#4948; the
Open MPI FAQ on running in containers). Without it every intra-node transfer fails or
falls back to a slower copy. ``OMPI_MCA_btl_vader_single_copy_mechanism=none`` turns cross-
memory attach off instead (no capability, an extra copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.training_job.frameworks.spec import JobWarning

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

CAPABILITY = "SYS_PTRACE"
OFF_SWITCH = "OMPI_MCA_btl_vader_single_copy_mechanism"


def shared_memory_warnings(job: TrainingJob, ranks: int) -> list[JobWarning]:
    """A warning when ``ranks`` Open MPI ranks share a worker pod that cannot attach
    to each other's memory."""
    security = job.security
    if ranks <= 1 or security.privileged or security.seccomp_profile != "RuntimeDefault":
        return []
    added = job.worker.security.capabilities.add
    if added is None:
        added = security.capabilities.add
    if CAPABILITY in added or OFF_SWITCH in {**job.env, **job.worker.env}:
        return []
    return [
        JobWarning(
            "openMpiPtrace",
            "job.security.capabilities.add",
            f"no {CAPABILITY} for {ranks} Open MPI ranks per pod under the RuntimeDefault "
            "seccomp profile: Open MPI's shared-memory transfers use process_vm_readv, which "
            f"the runtime refuses without it; add {CAPABILITY} (Pod Security baseline "
            f"refuses it: the team needs podSecurity privileged), or set {OFF_SWITCH}: none "
            "in env",
        )
    ]
