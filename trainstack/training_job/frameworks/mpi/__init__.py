"""``framework: mpi``: an MPIJob, one launcher running mpirun on the workers.

Rendered as the operator serving ``mpijobs.kubeflow.org`` on the stack speaks it
(``operatorApi``): upstream mpi-operator's ``kubeflow.org/v2beta1`` (dialect kubeflow,
ranks over ssh) or ack-arena's ``kubeflow.org/v1alpha1`` (dialect arena, ranks through
kubectl exec: ``mpi/arena.py``); ``trainstack.training_job.transports`` has both.

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

from trainstack.training_job.frameworks.mpi.arena import KUBECTL_PATH, arena_rules
from trainstack.training_job.frameworks.mpi.openmpi import (
    RANK_ENV_DIR,
    env_file_rules,
    shared_memory_warnings,
)
from trainstack.training_job.frameworks.mpi.settings import (
    DEFAULT_SSH_PORT,
    MPI_CONFIG_PATH,
    mounts_on_launcher,
    slots_per_worker,
)
from trainstack.training_job.frameworks.run_defaults import (
    ArenaSettings,
    RestartDefaults,
    RunDefaults,
)
from trainstack.training_job.frameworks.spec import (
    KUBEFLOW_JOB_SETTINGS,
    ChartDocs,
    FrameworkSpec,
    JobWarning,
    Role,
    RolePods,
    Violation,
)

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


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
    if job.operator_api == "arena":
        return found + arena_rules(job) + _exit_code_rules(job)
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
    found += [
        Violation(
            f"mpi.{key}[{index}]",
            part,
            "text without control characters (the preflight tests sshd with these options, "
            "one a line)",
        )
        for key, parts in (
            ("workerCommand", mpi.worker_command or []),
            ("workerArgs", mpi.worker_args),
        )
        for index, part in enumerate(parts)
        if any(ord(char) < 32 or ord(char) == 127 for char in part)
    ]
    return found + env_file_rules(job) + _exit_code_rules(job)


def _exit_code_rules(job: TrainingJob) -> list[Violation]:
    return [
        Violation(key, policy, "Never or OnFailure with framework mpi")
        for key, policy in (
            ("runPolicy.restartPolicy", job.run_policy.restart_policy),
            ("mpi.launcher.restartPolicy", job.mpi.launcher.restart_policy),
            ("worker.restartPolicy", job.worker.restart_policy),
        )
        if policy == "ExitCode"
    ]


def _warnings(job: TrainingJob) -> list[JobWarning]:
    if job.mpi.implementation != "OpenMPI":
        return []
    return shared_memory_warnings(job, slots_per_worker(job))


def _reserved_mounts(job: TrainingJob) -> list[tuple[str, str]]:
    if job.operator_api == "arena":
        return [
            ("the mpi-operator's hostfile", MPI_CONFIG_PATH),
            ("the mpi-operator's kubectl", KUBECTL_PATH),
        ]
    return [
        ("mpi.sshAuthMountPath", job.mpi.ssh_auth_mount_path),
        ("the mpi-operator's hostfile", MPI_CONFIG_PATH),
        ("the ranks' env file", RANK_ENV_DIR),
    ]


def _shared_template(job: TrainingJob) -> frozenset[str]:
    return frozenset({"launcher"}) if job.operator_api == "arena" else frozenset()


SPEC = FrameworkSpec(
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
    summary="Horovod/AIACC over MPI: MPIJob v2beta1 (ack-arena: v1alpha1)",
    section_title="MPI",
    docs=ChartDocs(
        article="an",
        operator="mpi-operator",
        renders=": one launcher that runs `command` and requests no GPU, and "
        "`worker.replicas` workers that run sshd.",
        keywords=("mpi", "horovod"),
    ),
    settings=KUBEFLOW_JOB_SETTINGS,
    run_defaults=RunDefaults(
        # The launcher is a batch Job: Never retries it with a new pod (backoffLimit counts
        # it) and keeps the failed pod with its preflight line (docs/preflight.md).
        restart=RestartDefaults("Never"),
        # A restarted worker cannot rejoin a running mpirun: the launcher retries instead
        # (mpi-operator's own default, pkg/apis/kubeflow/v2beta1/default.go).
        pinned=(("worker", "Never"),),
    ),
    # kubeflow/arena v0.15.5 (e30882c143cc2be32b7ed767ae0f78681892741b), docs/arena-parity.md
    arena=ArenaSettings(
        command="mpi",
        app="mpijob",  # charts/mpijob/templates/mpijob.yaml:9-17, 37-42
        workers=("worker",),  # env workers = --workers: pkg/argsbuilder/submit.go:653-660
        gpu_roles=("worker",),  # requestGPUsOfJobOwner = workers x gpus: submit.go:670-673
        restart=RestartDefaults("Never"),  # charts/mpijob/templates/mpijob.yaml:88
        backoff_limit=0,  # --retry default 0 (submit.go:103-104), mpijob.yaml:31
        # --clean-task-policy default All (pkg/argsbuilder/submit_mpijob.go:79), rendered for
        # ack-arena's v1alpha1, whose fork removes every worker either way. On upstream's
        # v2beta1 Running deletes the same running workers (they run sshd until the launcher
        # ends) and keeps a failed one with its preflight line (kubeflow/mpi-operator
        # b10758da, pkg/controller/mpi_job_controller.go:1078-1084).
        clean_pod_policy=(("arena", "All"),),
    ),
    dialects=frozenset({"kubeflow", "arena"}),
    dialect_versions=(("arena", "v1alpha1"),),
    shared_template=_shared_template,
    rules=_rules,
    command_has_data=mounts_on_launcher,
    warnings=_warnings,
    reserved_mounts=_reserved_mounts,
    image_sshd=True,
    injected_env=(
        "OMPI_MCA_orte_default_hostfile",
        "OMPI_MCA_plm_rsh_args",
        "OMPI_MCA_orte_keep_fqdn_hostnames",
        "OMPI_MCA_orte_set_default_slots",
    ),
)
