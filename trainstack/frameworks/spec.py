"""What a framework is to trainstack: the object it renders and the pods that object starts.

One frozen :class:`FrameworkSpec` per value of ``job.framework``. Code that needs to know
"which kind", "which roles", "which role reports results" asks the registry instead of
testing ``framework == "pytorch"`` (see ``registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from trainstack.quantity import parse_quantity

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob
    from trainstack.training_job.roles import Resources


@dataclass(frozen=True)
class Role:
    """One replica type of a framework's job object."""

    name: str
    """Lower-case role name: the chart's ``app.kubernetes.io/component`` label, the pod-name
    infix and the operators' role label value (``launcher``, ``worker``, ``chief``...)."""
    replica_type: str
    """Key of the role under the object's replica specs (``Launcher``, ``Worker``, ``PS``...)."""
    values_key: str
    """Dotted key of the role's settings in the chart values (``mpi.launcher``, ``worker``)."""
    trains: bool
    """Its pods train: they get /dev/shm, RDMA devices and, by default, the workers' GPUs."""
    indexed: bool = True
    """Pods are named ``<job>-<role>-<index>``; the MPI launcher is just ``<job>-launcher``."""


@dataclass(frozen=True)
class RolePods:
    """``replicas`` identical pods of one role of one job."""

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


@dataclass(frozen=True)
class FrameworkSpec:
    """One framework: the job object the chart renders for it and the pods of that object."""

    name: str
    """The value of ``job.framework``."""
    kind: str
    group: str
    version: str
    """The API version the training-job chart renders (``v2beta1`` for MPIJob)."""
    plural: str
    replica_specs_key: str
    """Where the roles live in the object's spec (``mpiReplicaSpecs``...)."""
    roles: tuple[Role, ...]
    reporting_role: str
    """The role whose logs carry the job's results (the MPI launcher, TF chief, PyTorch master)."""
    kueue_integration: str
    """The name of Kueue's integration for this kind (``integrations.frameworks``)."""
    role_pods: Callable[[TrainingJob], list[RolePods]]
    """Every role of a job with its replicas, GPUs and resources (roles with 0 pods too)."""
    summary: str
    """One line for documentation: what the framework runs."""

    @property
    def crd(self) -> str:
        """The CustomResourceDefinition name, e.g. ``mpijobs.kubeflow.org``."""
        return f"{self.plural}.{self.group}"

    @property
    def api_version(self) -> str:
        """``group/version`` of the rendered object."""
        return f"{self.group}/{self.version}"

    def role(self, name: str) -> Role:
        """The role called ``name`` (a KeyError names the framework's roles)."""
        for role in self.roles:
            if role.name == name:
                return role
        known = ", ".join(role.name for role in self.roles)
        raise KeyError(f"framework {self.name} has no role {name!r} (roles: {known})")

    def pods(self, job: TrainingJob) -> list[RolePods]:
        """The roles of ``job`` that start at least one pod, in the framework's role order."""
        return [pods for pods in self.role_pods(job) if pods.replicas > 0]

    def pod_suffixes(self, job: TrainingJob) -> list[str]:
        """The suffix of the last pod of each role: ``-worker-3`` for 4 workers."""
        suffixes = []
        for pods in self.pods(job):
            role = self.role(pods.role)
            index = f"-{pods.replicas - 1}" if role.indexed else ""
            suffixes.append(f"-{role.name}{index}")
        return suffixes
