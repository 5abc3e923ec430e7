"""How an MPI launcher starts its ranks on the workers, and what the image needs for it.

The operator serving ``MPIJob`` decides it (the catalog's ``ServedApi.transport``); the
chart renders the API of that operator (``operatorApi``), so one dialect means one
transport (:data:`DIALECT_TRANSPORT`, held equal to the catalog by a test).

- ``ssh``, upstream mpi-operator, MPIJob ``kubeflow.org/v2beta1``
  (kubeflow/mpi-operator, release-0.8 head b10758da23ce5d9b9efa6f42f7b050dc8605f5f5 = the
  v0.8.2 content, ``pkg/controller/mpi_job_controller.go``): a worker whose container
  sets neither command nor args runs ``/usr/sbin/sshd -De`` (L1529-1531); the launcher's
  Open MPI reaches the workers over ssh (``OMPI_MCA_plm_rsh_args``, L191-193) at the
  host names of the job's headless Service, ``<job>-worker-<i>.<job>.<namespace>.svc``
  (``newConfigMap``, L1335-1360; the records exist once a worker is Ready:
  ``newService``, L1418-1436; the launcher starts with the workers unless
  ``launcherCreationPolicy`` is WaitForWorkersReady, L678, which does not hold for a job
  created suspended, L665-686: the chart renders it for queued jobs only),
  with the keys of the Secret ``<job>-ssh`` mounted at ``sshAuthMountPath`` in the first
  container only (``setupSSHOnPod``, L1793-1816). The image needs sshd (workers) and an
  ssh client (launcher), set up as mpi-operator's base image (build/base/Dockerfile).
  A rank gets mpirun's exports, not its pod's env (``frameworks/mpi/openmpi.py``).
- ``kubectl-exec``, ack-arena's mpi-operator fork, MPIJob ``kubeflow.org/v1alpha1``
  (AliyunContainerService/mpi-operator d40ff84155fbcd6f2cbf8e49714e00b963e8b059,
  ``pkg/controllers/mpi_job_controller.go``): the workers are a StatefulSet whose
  command is replaced by ``sleep 365d`` (``newWorker``, L900-979); the launcher Job is
  created once every worker is Ready (L460-467), gets ``kubectl`` from the init container
  ``kubectl-delivery`` (L1002-1021) and starts each rank with ``kubectl exec <pod> --
  /bin/sh -c ...`` (``kubexec.sh``, L779-810, set as ``OMPI_MCA_plm_rsh_agent``,
  L1023-1031), as its own ServiceAccount ``<job>-launcher`` allowed ``pods/exec`` on the
  workers (L815-895). The image needs no sshd nor ssh client: only ``/bin/sh`` (and Open
  MPI, as with any transport).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from trainstack.training_job.dialects import Dialect
from trainstack.training_job.preflight import RESOLVE_SECONDS

Transport = Literal["ssh", "kubectl-exec"]


@dataclass(frozen=True)
class TransportFacts:
    """One transport: how the ranks start, and what the job's image must hold for it."""

    name: Transport
    how: str
    """How the launcher starts the ranks, for the plan summary."""
    image_needs: str
    """What the image must contain for it, beyond MPI itself."""
    start: str
    """When the launcher starts, relative to its workers."""
    rank_env: str
    """How the job's env reaches the ranks."""
    image_ssh: bool
    """Whether the image's ssh setup matters (the plan says how it is known)."""


TRANSPORTS: dict[Transport, TransportFacts] = {
    "ssh": TransportFacts(
        "ssh",
        "the launcher's mpirun reaches each worker's sshd over ssh",
        "sshd in the workers (mpi.workerCommand, default /usr/sbin/sshd -De) and an ssh "
        "client in the launcher",
        "with its workers (unqueued: AtStartup, so a worker's failed preflight ends the "
        "job through the launcher; queued: WaitForWorkersReady, which mpi-operator 0.8.2 "
        "does not apply to a job created suspended); its preflight waits at most "
        f"{RESOLVE_SECONDS} s for the workers' names",
        "what mpirun exports (sshd starts a session without the pod's env): OMPI_*, and the "
        "job's env through Open MPI's env file (OMPI_MCA_mca_base_envar_file_prefix)",
        True,
    ),
    "kubectl-exec": TransportFacts(
        "kubectl-exec",
        "the launcher's mpirun starts each rank with kubectl exec (kubectl delivered by the "
        "operator's init container; workers run sleep 365d)",
        "nothing for the transport (no sshd, no ssh client): /bin/sh in the workers",
        "once every worker is Ready (the fork creates the launcher Job then)",
        "the pods' env: kubectl exec runs each rank in its worker's container",
        False,
    ),
}

DIALECT_TRANSPORT: dict[Dialect, Transport] = {"kubeflow": "ssh", "arena": "kubectl-exec"}
"""The transport of framework mpi in each dialect the chart renders it in."""
