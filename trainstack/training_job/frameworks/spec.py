"""What a framework is to trainstack: the object it renders and the pods that object starts.

One frozen :class:`FrameworkSpec` per value of ``job.framework``. Code that needs to know
"which kind", "which roles", "which role reports results", "which rules", "which paths
are taken", "what the operator injects" asks the registry instead of testing
``framework == "pytorch"`` (see ``registry.py``). The chart mirrors each entry in the
framework's own template (its kind, and its ``training-job.<framework>.*`` helpers), but
``training-job.<framework>.info``: ``trainstack chart generate`` writes it from the entry
(kind, API version, plural, port, dialects, settings, roles, run defaults, Arena settings)
into ``_frameworks.tpl``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from trainstack.core.quantity import parse_quantity
from trainstack.training_job.dialects import Dialect
from trainstack.training_job.frameworks.run_defaults import ArenaSettings, RunDefaults

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob
    from trainstack.training_job.roles import Resources


class Violation(NamedTuple):
    """One broken rule: the key to change (dotted), the value found there, what is allowed."""

    field: str
    found: Any
    allowed: str


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
    container: str
    """Name of the training container: the operators find it by name (``tensorflow``,
    ``pytorch``; the Trainer runtimes' ``node``); mpi-operator takes the first container."""
    hostname: str = "-{name}-{index}"
    """Host name of the role's pods after the job's name (``{name}``: the role, ``{index}``:
    the pod's index): ``-worker-3``; the MPI launcher is just ``-launcher``, a TrainJob's
    nodes ``-node-0-3`` (JobSet: replicated job, job index, pod index)."""


@dataclass(frozen=True)
class RolePods:
    """``replicas`` identical pods of one role of one job."""

    role: str
    key: str
    """Dotted key of the role in the experiment's ``job`` (e.g. ``job.worker``)."""
    replicas: int
    gpus: int
    resources: Resources
    gpus_default: str = ""
    """How :attr:`gpus` was chosen when the file does not set the role's own key (e.g. "not
    set in the file: worker.gpus by default"), with how to change it; empty when written."""

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


KUBEFLOW_JOB_SETTINGS = frozenset(
    {
        "runPolicy.cleanPodPolicy",
        "runPolicy.backoffLimit",
        "runPolicy.activeDeadlineSeconds",
        "runPolicy.ttlSecondsAfterFinished",
        "scheduling.gang.enabled",
        "security.seccompProfile",
    }
)
"""The operator-dependent settings every ``kubeflow.org`` job (run policy, pod templates)
can carry (``trainstack.training_job.settings`` keys)."""


class JobWarning(NamedTuple):
    """What does not stop a plan but often ruins a run: the warning's id, key and message."""

    check: str
    """Its id in :data:`trainstack.core.warning_ids.WARNING_IDS`."""
    key: str
    message: str


class Port(NamedTuple):
    """The port the operator gives the training container when the pod names none."""

    name: str
    number: int


@dataclass(frozen=True)
class ChartDocs:
    """How the chart's generated documentation presents a framework: its line under "What
    it renders" in the README and its words in Chart.yaml."""

    article: str
    """``a`` or ``an``, as its kind is read aloud (``an`` MPIJob)."""
    operator: str
    """What serves it, as the README names it: ``mpi-operator``."""
    renders: str
    """The rest of its README line, after its kind, API version and operator (from its
    punctuation on): what the chart renders for it."""
    keywords: tuple[str, ...]
    """Its keywords in Chart.yaml."""
    known_as: str = ""
    """Words before its kind in the chart's description (``Kubeflow Trainer ``)."""


def _no_violations(job: TrainingJob) -> list[Violation]:
    return []


def _no_paths(job: TrainingJob) -> list[tuple[str, str]]:
    return []


def _no_warnings(job: TrainingJob) -> list[JobWarning]:
    return []


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
    replica_specs_key: str | None
    """Where the roles live in the object's spec (``mpiReplicaSpecs``...); ``None`` when the
    object has no replica specs of its own (a TrainJob's pods come from its runtime)."""
    roles: tuple[Role, ...]
    reporting_role: str
    """The role whose logs carry the job's results (the MPI launcher, TF chief, PyTorch master)."""
    kueue_integration: str
    """The name of Kueue's integration for this kind (``integrations.frameworks``)."""
    role_pods: Callable[[TrainingJob], list[RolePods]]
    """Every role of a job with its replicas, GPUs and resources (roles with 0 pods too)."""
    summary: str
    """One line for documentation: what the framework runs."""
    section_title: str
    """The title of its section of the values (``## @section MPI (framework: mpi)``), whose
    one key is its name."""
    docs: ChartDocs
    settings: frozenset[str]
    """The operator-dependent settings (``trainstack.training_job.settings``) its object can
    carry at all; the others are never rendered for it."""
    run_defaults: RunDefaults
    """What its job runs with where the values leave a key null (restart policies)."""
    arena: ArenaSettings | None
    """What ``arena submit`` gives its job (``arenaSubmit``); ``None``: arena submit has no
    command for it, and ``arenaSubmit`` is refused."""
    dialects: frozenset[Dialect] = frozenset({"kubeflow"})
    """The spellings of its object the chart can render (``operatorApi``): ``kubeflow``
    (upstream operators), ``arena`` (the older APIs of Arena's forks)."""
    dialect_versions: tuple[tuple[Dialect, str], ...] = ()
    """The API version it is rendered in where a dialect has its own (ack-arena's MPIJob:
    ``(("arena", "v1alpha1"),)``); any other dialect renders :attr:`version`."""
    shared_template: Callable[[TrainingJob], frozenset[str]] = lambda job: frozenset()
    """The roles whose pods the operator makes from another role's pod template in the
    job's dialect (ack-arena's MPIJob v1alpha1: the launcher, from the one template): they
    take no placement or pod settings of their own."""
    rules: Callable[[TrainingJob], list[Violation]] = _no_violations
    """Its own cross-field rules (replicas, what its object cannot say), in a fixed order."""
    warnings: Callable[[TrainingJob], list[JobWarning]] = _no_warnings
    """What does not stop a plan but often ruins a run of this framework."""
    reserved_mounts: Callable[[TrainingJob], list[tuple[str, str]]] = _no_paths
    """(key, path) of container paths the framework or its operator takes."""
    command_has_data: Callable[[TrainingJob], bool] = lambda job: True
    """Whether the pod that runs the command mounts the job's data (the MPI launcher only
    with ``mpi.mountsOnLauncher``; every other role always does)."""
    port: Port | None = None
    """The port the operator injects into the training container (TF_CONFIG and the
    PyTorch master address name it); ``None``: roles take no ``port``."""
    injected_env: tuple[str, ...] = field(default=())
    """Environment variables the operator writes into the training containers (a job
    that sets one of them is warned: the operator's value decides)."""
    image_sshd: bool = False
    """Its workers run the image's sshd (MPI's ``mpi.workerCommand``): the plan's line
    about the image shows ``imageFacts.sshd`` beside CUDA."""

    @property
    def crd(self) -> str:
        """The CustomResourceDefinition name, e.g. ``mpijobs.kubeflow.org``."""
        return f"{self.plural}.{self.group}"

    @property
    def api_version(self) -> str:
        """``group/version`` of the rendered object (in the default dialect)."""
        return f"{self.group}/{self.version}"

    def api_version_in(self, dialect: Dialect) -> str:
        """``group/version`` of the object rendered in ``dialect``."""
        return f"{self.group}/{dict(self.dialect_versions).get(dialect, self.version)}"

    @property
    def api_versions(self) -> tuple[str, ...]:
        """Every ``group/version`` the chart renders it in: the default dialect's first."""
        versions = [self.version, *(version for _, version in self.dialect_versions)]
        return tuple(f"{self.group}/{version}" for version in dict.fromkeys(versions))

    def role(self, name: str) -> Role:
        """The role called ``name`` (a KeyError names the framework's roles)."""
        for role in self.roles:
            if role.name == name:
                return role
        known = ", ".join(role.name for role in self.roles)
        raise KeyError(f"framework {self.name} has no role {name!r} (roles: {known})")

    def role_settings(self, job: TrainingJob, name: str) -> Any:
        """The chart values of role ``name`` in ``job`` (``job.mpi.launcher``...)."""
        current: Any = job
        for part in self.role(name).values_key.split("."):
            current = getattr(current, re.sub(r"(?<!^)(?=[A-Z])", "_", part).lower())
        return current

    def pods(self, job: TrainingJob) -> list[RolePods]:
        """The roles of ``job`` that start at least one pod, in the framework's role order."""
        return [pods for pods in self.role_pods(job) if pods.replicas > 0]

    def pod_suffixes(self, job: TrainingJob) -> list[str]:
        """The host-name suffix of the last pod of each role: ``-worker-3`` for 4 workers."""
        return [
            self.role(pods.role).hostname.format(name=pods.role, index=pods.replicas - 1)
            for pods in self.pods(job)
        ]
