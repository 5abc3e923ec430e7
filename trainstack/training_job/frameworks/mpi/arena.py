"""``framework: mpi`` with ``operatorApi: arena``: what ack-arena's MPIJob v1alpha1 cannot say.

ack-arena's mpi-operator fork (AliyunContainerService/mpi-operator
d40ff84155fbcd6f2cbf8e49714e00b963e8b059, pkg/controllers/mpi_job_controller.go) makes the
launcher and the workers from one pod template (``spec.template``): the workers are a
StatefulSet that always restarts and runs ``sleep 365d`` instead of the command
(``newWorker``, L900-979); the launcher is a Job that runs the command with the
template's restart policy (Never, else OnFailure), the resources of
``spec.launcherResources`` and, without ``mountsOnLauncher``, no claims (``newLauncher``,
L984-1141); ranks start through ``kubectl exec`` with Open MPI's rsh agent and a
hostfile giving each worker its GPUs as slots, 1 without GPUs (``newConfigMap``,
L779-810). The CRD (kubeflow/arena arena-artifacts, MPIJob ``v1alpha1``) has no time
limits, no ``slotsPerWorker``, no ``mpiImplementation`` and no ``sshAuthMountPath``.
Every setting the chart would lose there is refused here, at its key; the chart's
``training-job.mpi.validate`` says the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trainstack.training_job.frameworks.mpi.settings import mounts_on_launcher
from trainstack.training_job.frameworks.spec import Violation

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

WORKER_COMMAND = ["/usr/sbin/sshd", "-De"]
"""mpi.workerCommand's default (the v2beta1 workers' sshd)."""
KUBECTL_PATH = "/opt/kube"
"""Where the fork's init container delivers kubectl on the launcher."""
SHARED = (
    "the launcher and the workers share one pod template in MPIJob v1alpha1: only "
    "mpi.launcher.resources (launcherResources) and mpi.launcher.restartPolicy are the "
    "launcher's own"
)
_WHY = "with operatorApi arena"


def _launcher_overrides(job: TrainingJob) -> list[Violation]:
    """The launcher's pod settings other than resources and restart policy."""
    launcher = job.mpi.launcher
    found = []
    settings: tuple[tuple[str, Any, bool], ...] = (
        ("image", launcher.image, launcher.image is not None),
        ("nodeSelector", "a node selector", bool(launcher.node_selector)),
        ("tolerations", "tolerations", bool(launcher.tolerations)),
        ("env", "variables", bool(launcher.env)),
        ("readinessProbe", "a probe", launcher.readiness_probe is not None),
        ("livenessProbe", "a probe", launcher.liveness_probe is not None),
        ("security", "role security", launcher.security != type(launcher.security)()),
    )
    for key, found_value, used in settings:
        if used:
            found.append(Violation(f"mpi.launcher.{key}", found_value, f"unset {_WHY} ({SHARED})"))
    return found


def arena_rules(job: TrainingJob) -> list[Violation]:
    """What MPIJob v1alpha1 cannot carry, in a fixed order (the chart's too)."""
    mpi = job.mpi
    policy = job.run_policy
    found = _launcher_overrides(job)
    if job.worker.restart_policy is not None:
        found.append(
            Violation(
                "worker.restartPolicy",
                job.worker.restart_policy,
                f"null {_WHY} (its workers are a StatefulSet: the operator sets Always)",
            )
        )
    if job.scheduling.worker_spread != "none":
        found.append(
            Violation(
                "scheduling.workerSpread",
                job.scheduling.worker_spread,
                f"none {_WHY} (the launcher shares the workers' pod template: it would be "
                "kept off their nodes too)",
            )
        )
    checks: tuple[tuple[str, Any, bool, str, str], ...] = (
        (
            "mpi.implementation",
            mpi.implementation,
            mpi.implementation != "OpenMPI",
            "OpenMPI",
            "its launcher starts the ranks with Open MPI's rsh agent, kubectl exec",
        ),
        (
            "mpi.slotsPerWorker",
            mpi.slots_per_worker,
            mpi.slots_per_worker is not None,
            "null",
            "its hostfile gives each worker worker.gpus slots, 1 without GPUs",
        ),
        (
            "mpi.sshPort",
            mpi.ssh_port,
            mpi.ssh_port != 22,
            "22",
            "no sshd: ranks start through kubectl exec",
        ),
        (
            "mpi.workerCommand",
            mpi.worker_command,
            mpi.worker_command != WORKER_COMMAND,
            '["/usr/sbin/sshd", "-De"], the default,',
            "the operator runs sleep 365d in the workers",
        ),
        (
            "mpi.workerArgs",
            mpi.worker_args,
            bool(mpi.worker_args),
            "[]",
            "the operator runs sleep 365d in the workers",
        ),
        (
            "mpi.sshAuthMountPath",
            mpi.ssh_auth_mount_path,
            mpi.ssh_auth_mount_path != "/root/.ssh",
            "/root/.ssh, the default,",
            "no SSH keys: ranks start through kubectl exec",
        ),
        (
            "runPolicy.activeDeadlineSeconds",
            policy.active_deadline_seconds,
            policy.active_deadline_seconds is not None,
            "null",
            "MPIJob v1alpha1 has no activeDeadlineSeconds",
        ),
        (
            "runPolicy.ttlSecondsAfterFinished",
            policy.ttl_seconds_after_finished,
            policy.ttl_seconds_after_finished is not None,
            "null",
            "MPIJob v1alpha1 has no ttlSecondsAfterFinished",
        ),
    )
    found += [
        Violation(key, value, f"{allowed} {_WHY} ({why})")
        for key, value, used, allowed, why in checks
        if used
    ]
    return found + _claims_on_launcher(job) + _launcher_reads_workers(job)


def claims(job: TrainingJob) -> int:
    """The PersistentVolumeClaims the pod template mounts: the datasets and results."""
    return len(job.datasets) + (job.results.claim_name is not None)


def _claims_on_launcher(job: TrainingJob) -> list[Violation]:
    """The fork strips claims off the launcher by removing from the slices it ranges over
    (``newLauncher``, L1037-1051): after one removal it skips the next volume and slices
    past the shortened list, so two or more claims panic its controller or leave a claim
    on the launcher."""
    if mounts_on_launcher(job) or claims(job) < 2:
        return []
    why = " (arena submit's default: arenaSubmit)" if job.mpi.mounts_on_launcher is None else ""
    return [
        Violation(
            "mpi.mountsOnLauncher",
            False,
            f"true {_WHY} and {claims(job)} claims (datasets and results){why}: the fork "
            "removes claims from the launcher in place (AliyunContainerService/mpi-operator "
            "d40ff84, pkg/controllers/mpi_job_controller.go:1037-1051), which panics its "
            "controller or leaves a claim with two or more; or mount at most one claim",
        )
    ]


def _launcher_reads_workers(job: TrainingJob) -> list[Violation]:
    """The workers only report their preflight; the launcher reads the reports before it
    runs the command (docs/preflight.md), which it cannot do around the image's ENTRYPOINT."""
    if not job.preflight.enabled or job.command is not None:
        return []
    return [
        Violation(
            "preflight.enabled",
            True,
            f"false {_WHY} and no command (the workers' StatefulSet would retry a failed "
            "check forever, so they only report it and the launcher fails with their lines "
            "before it runs the command; set command, or preflight.enabled: false)",
        )
    ]
