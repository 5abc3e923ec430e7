"""``framework: trainjob``: a Kubeflow Trainer v2 TrainJob (trainer.kubeflow.org/v1alpha1).

A TrainJob names a runtime (``spec.runtimeRef``: a ClusterTrainingRuntime the Trainer
chart installs, or a TrainingRuntime) and sets the trainer: image, command, args, env,
``numNodes``, ``numProcPerNode`` and ``resourcesPerNode``. Everything else about the pods
comes from the runtime's JobSet template, which the job may patch through
``spec.runtimePatches`` (Trainer 2.2+, replacing ``podTemplateOverrides``,
kubeflow/trainer#3309): per replicated job, the pods' labels and annotations, volumes,
node selector, tolerations, affinity, security context, service account, image pull
secrets, and per container env, volume mounts and security context. Facts from the CRD
of v2.3.0 (manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml). What a TrainJob
cannot say (probes, working directory, host network, priority class, init containers,
run policy beyond ``activeDeadlineSeconds``) is refused here rather than dropped.

Runtimes of the Trainer chart (charts/kubeflow-trainer, ``runtimes.*`` values, since 2.2.0,
kubeflow/trainer#3124): ``torch-distributed`` (replicated job ``node``, container
``node``), and the MPI runtimes ``deepspeed-distributed`` and ``mlx-distributed``
(replicated jobs ``launcher`` and ``node``, OpenMPI, SSH keys at ``/home/mpiuser/.ssh``,
the launcher runs as a node: ``runLauncherAsNode``). The torch plugin writes
``PET_NNODES``, ``PET_NPROC_PER_NODE``, ``PET_NODE_RANK``, ``PET_MASTER_ADDR`` and
``PET_MASTER_PORT``; the MPI plugin the ``OMPI_MCA_*`` variables and the hostfile at
``/etc/mpi`` (pkg/runtime/framework/plugins, pkg/constants). JobSet names each pod's host
``<job>-<replicated job>-<job index>-<pod index>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX
from trainstack.training_job.frameworks.mpi.openmpi import shared_memory_warnings
from trainstack.training_job.frameworks.mpi.settings import MPI_CONFIG_PATH
from trainstack.training_job.frameworks.run_defaults import RestartDefaults, RunDefaults
from trainstack.training_job.frameworks.spec import (
    ChartDocs,
    FrameworkSpec,
    JobWarning,
    Role,
    RolePods,
    Violation,
)
from trainstack.training_job.frameworks.trainjob.unsupported import UNSUPPORTED, WHY

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

TORCH_RUNTIME = "torch-distributed"
MPI_RUNTIMES = ("deepspeed-distributed", "mlx-distributed")
KNOWN_RUNTIMES: dict[str, tuple[str, ...]] = {
    TORCH_RUNTIME: ("node",),
    **{name: ("launcher", "node") for name in MPI_RUNTIMES},
}
"""The replicated jobs of each runtime the Trainer chart ships."""
MPI_SSH_PATH = "/home/mpiuser/.ssh"


RuntimeKind = Literal["ClusterTrainingRuntime", "TrainingRuntime"]
RUNTIME_NAME_PATTERN = r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"


class TrainJobSettings(StrictModel):
    """A Kubeflow Trainer v2 TrainJob (trainer.kubeflow.org/v1alpha1): the runtime it runs.

    The runtime (a ClusterTrainingRuntime the Trainer chart installs, or a TrainingRuntime
    of the namespace) holds the pod templates; the job sets the trainer's image, command,
    nodes (worker.replicas), processes per node, resources and env, and patches the
    runtime's pods (runtimePatches) with the data mounts, /dev/shm, security and scheduling.
    """

    runtime: str = Field(
        default="torch-distributed",
        max_length=253,
        pattern=RUNTIME_NAME_PATTERN,
        description="Name of the runtime: torch-distributed (PyTorch), deepspeed-distributed "
        "(MPI), mlx-distributed (MPI), or one of your own.",
    )
    runtime_kind: RuntimeKind = Field(
        default="ClusterTrainingRuntime",
        description="ClusterTrainingRuntime (cluster-wide, what the Trainer chart installs) or "
        "TrainingRuntime (in the job's namespace).",
    )
    num_proc_per_node: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="Processes per node (MPI: slots per node); null: the runtime's (torch: one "
        "per GPU, auto).",
    )
    replicated_jobs: list[str] | None = Field(
        default=None,
        min_length=1,
        description="The runtime's replicated jobs whose pods get the job's mounts and pod "
        "settings; null: node for torch-distributed, launcher and node for the MPI runtimes "
        "(required for other runtimes).",
        examples=[["node"]],
    )
    container: str = Field(
        default="node",
        pattern=r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
        description="Name of the training container in the runtime's pods (node in every "
        "runtime the Trainer chart ships).",
    )


def replicated_jobs(job: TrainingJob) -> tuple[str, ...]:
    """The runtime's replicated jobs whose pods get the job's mounts and pod settings."""
    settings = job.trainjob
    if settings.replicated_jobs is not None:
        return tuple(settings.replicated_jobs)
    return KNOWN_RUNTIMES.get(settings.runtime, ())


def _role_pods(job: TrainingJob) -> list[RolePods]:
    worker = job.worker
    if job.trainjob.runtime in MPI_RUNTIMES:
        # runLauncherAsNode: the launcher is the first of numNodes nodes
        return [
            RolePods(
                "launcher", "job.worker", min(1, worker.replicas), worker.gpus, worker.resources
            ),
            RolePods(
                "worker", "job.worker", max(0, worker.replicas - 1), worker.gpus, worker.resources
            ),
        ]
    return [RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources)]


def _rules(job: TrainingJob) -> list[Violation]:
    found: list[Violation] = []
    if job.worker.replicas < 1:
        found.append(
            Violation(
                "worker.replicas",
                job.worker.replicas,
                f"at least 1 {WHY} (the TrainJob's numNodes)",
            )
        )
    if not replicated_jobs(job):
        known = "; ".join(f"{name}: {', '.join(jobs)}" for name, jobs in KNOWN_RUNTIMES.items())
        found.append(
            Violation(
                "trainjob.replicatedJobs",
                None,
                f"the replicated jobs of runtime {job.trainjob.runtime} to patch (known runtimes: "
                f"{known})",
            )
        )
    found += [
        Violation(entry.key, entry.value(job), entry.allowed)
        for entry in UNSUPPORTED
        if entry.used(job)
    ]
    return found


def _warnings(job: TrainingJob) -> list[JobWarning]:
    found = []
    if not job.security.automount_service_account_token:
        found.append(
            JobWarning(
                "trainJobToken",
                "job.security.automountServiceAccountToken",
                "false, but a TrainJob cannot say so: the runtime's pods get the service "
                "account's API token unless the runtime's template (or the ServiceAccount) "
                "turns it off",
            )
        )
    if job.trainjob.runtime in MPI_RUNTIMES:
        ranks = job.trainjob.num_proc_per_node or max(1, job.worker.gpus)
        found += shared_memory_warnings(job, ranks)
    return found


def _reserved_mounts(job: TrainingJob) -> list[tuple[str, str]]:
    if job.trainjob.runtime in MPI_RUNTIMES:
        return [
            ("the runtime's SSH keys", MPI_SSH_PATH),
            ("the Trainer's MPI hostfile", MPI_CONFIG_PATH),
        ]
    return []


SPEC = FrameworkSpec(
    name="trainjob",
    kind="TrainJob",
    group="trainer.kubeflow.org",
    version="v1alpha1",
    plural="trainjobs",
    replica_specs_key=None,
    # replica_type: the runtime's replicated job; the launcher exists in MPI runtimes only
    roles=(
        Role(
            "launcher",
            "launcher",
            "worker",
            trains=True,
            container="node",
            hostname="-launcher-0-{index}",
        ),
        Role(
            "worker",
            "node",
            "worker",
            trains=True,
            container="node",
            hostname="-node-0-{index}",
        ),
    ),
    # torch: node 0 is rank 0; MPI runtimes: the launcher runs mpirun
    reporting_role="worker",
    kueue_integration="trainer.kubeflow.org/trainjob",
    role_pods=_role_pods,
    summary="Kubeflow Trainer v2: TrainJob v1alpha1 on a training runtime",
    section_title="Kubeflow Trainer v2",
    docs=ChartDocs(
        article="a",
        operator="Kubeflow Trainer v2",
        renders=" on a training runtime (`trainjob.runtime`, default `torch-distributed`): "
        "`worker.replicas` nodes; the data mounts, `/dev/shm`, security and placement reach "
        "the runtime's pods through `runtimePatches`. What a TrainJob cannot say (probes, "
        "working directory, host network, priority class, run policy beyond the deadline) "
        "is refused.",
        keywords=("kubeflow", "trainer"),
        known_as="Kubeflow Trainer ",
    ),
    settings=frozenset({"runPolicy.activeDeadlineSeconds", "security.seccompProfile"}),
    # the runtime's JobSet decides restarts: its roles take no restartPolicy (unsupported.py)
    run_defaults=RunDefaults(restart=RestartDefaults("OnFailure")),
    arena=None,  # Arena has no TrainJob
    rules=_rules,
    warnings=_warnings,
    reserved_mounts=_reserved_mounts,
    injected_env=(
        "PET_NNODES",
        "PET_NPROC_PER_NODE",
        "PET_NODE_RANK",
        "PET_MASTER_ADDR",
        "PET_MASTER_PORT",
        "OMPI_MCA_orte_default_hostfile",
        "OMPI_MCA_plm_rsh_args",
        "OMPI_MCA_orte_keep_fqdn_hostnames",
        "OMPI_MCA_orte_set_default_slots",
    ),
)
