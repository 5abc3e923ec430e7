"""What does not stop a plan but often ruins a run."""

from __future__ import annotations

from trainstack.checks.findings import Finding, warning
from trainstack.checks.pods import role_pods, total_gpus
from trainstack.config.loader import LoadedStack
from trainstack.core.credentials import holds_credential
from trainstack.core.errors import dotted_path
from trainstack.core.quantity import parse_quantity
from trainstack.experiments import Experiment
from trainstack.training_job.frameworks import FrameworkSpec, framework

NCCL_SHM_MINIMUM = parse_quantity("1Gi")


def warning_findings(experiment: Experiment, stack: LoadedStack) -> list[Finding]:
    """Warnings: small /dev/shm for NCCL jobs, GPU pods without memory limits, privileges."""
    job = experiment.job
    warnings: list[Finding] = []
    multi_gpu = total_gpus(job) > 1
    if multi_gpu and not job.shm.enabled:
        warnings.append(
            _warn(
                experiment,
                "job.shm.enabled",
                "false on a multi-GPU job: NCCL falls back to the 64 MB default "
                "/dev/shm and fails or crawls; enable it with sizeLimit >= 1Gi",
                "sharedMemory",
            )
        )
    elif (
        multi_gpu
        and job.shm.size_limit is not None
        and parse_quantity(job.shm.size_limit) < NCCL_SHM_MINIMUM
    ):
        warnings.append(
            _warn(
                experiment,
                "job.shm.sizeLimit",
                f"{job.shm.size_limit} is under 1Gi on a multi-GPU job: NCCL "
                "needs more shared memory",
                "sharedMemory",
            )
        )
    # The namespace's LimitRange fills in a missing limit: only warn when nothing will.
    team = stack.config.team(experiment.team) if experiment.team else None
    defaulted = team is not None and team.container_defaults.limit("memory") is not None
    for role in role_pods(job):
        if role.gpus and role.resources.limits.memory is None and not defaulted:
            warnings.append(
                _warn(
                    experiment,
                    f"{role.key}.resources.limits.memory",
                    f"{role.role} pods hold {role.gpus} GPU(s) without a memory "
                    "limit: an over-committed node kills jobs; set one (or a "
                    "namespace LimitRange default)",
                    "memoryLimit",
                )
            )
    if job.run_policy.ttl_seconds_after_finished is not None:
        warnings.append(
            _warn(
                experiment,
                "job.runPolicy.ttlSecondsAfterFinished",
                f"{job.run_policy.ttl_seconds_after_finished}: the operator "
                "deletes the finished job, and the next `pulumi up` creates "
                "it again and re-runs it; remove the experiment from the "
                "stack to clean up instead",
                "ttlAfterFinished",
            )
        )
    if job.security.privileged:
        warnings.append(
            _warn(
                experiment,
                "job.security.privileged",
                "true: the containers get full access to the node",
                "privileged",
            )
        )
    if job.network.host_network:
        warnings.append(
            _warn(
                experiment,
                "job.network.hostNetwork",
                "true: the pods share the node's network namespace",
                "hostNetwork",
            )
        )
    spec = framework(job.framework)
    warnings += [_warn(experiment, w.key, w.message, w.check) for w in spec.warnings(job)]
    warnings += _injected_env(experiment, spec)
    warnings += _plain_credentials(experiment, spec)
    return warnings


def _injected_env(experiment: Experiment, spec: FrameworkSpec) -> list[Finding]:
    """Variables the job sets that the operator writes too: the operator's value wins."""
    job = experiment.job
    keys = [(f"job.env.{name}", name) for name in job.env]
    for role in {role.values_key: role.name for role in spec.roles}.values():
        env = spec.role_settings(job, role).env
        keys += [(f"job.{spec.role(role).values_key}.env.{name}", name) for name in env]
    return [
        _warn(
            experiment,
            key,
            f"{name} is set by the operator in the {spec.kind}'s training containers, and its "
            "value wins: remove it from the job",
            "operatorEnv",
        )
        for key, name in keys
        if name in spec.injected_env
    ]


def _plain_credentials(experiment: Experiment, spec: FrameworkSpec) -> list[Finding]:
    """Literal values of variables whose names say they hold credentials (job and roles).

    Which names: :mod:`trainstack.core.credentials`. The value is never shown.
    """
    job = experiment.job
    variables = [(["job", "env", name], name, value) for name, value in job.env.items()]
    for role in {role.values_key: role.name for role in spec.roles}.values():
        env = spec.role_settings(job, role).env
        where = ["job", *spec.role(role).values_key.split("."), "env"]
        variables += [([*where, name], name, value) for name, value in env.items()]
    return [
        _warn(
            experiment,
            dotted_path(path),
            "looks like a credential (by its name; the value is not shown) in plain text: it "
            "is written into the plan, the Helm release and the pods' spec, readable by all "
            "who can read those; keep it in a Kubernetes Secret and reference it with "
            "`valueFrom: {secretKeyRef: {name, key}}`",
            "plainCredential",
        )
        for path, name, value in sorted(variables)
        if isinstance(value, str) and holds_credential(name)
    ]


def _warn(experiment: Experiment, key: str, message: str, check: str) -> Finding:
    return warning(experiment.source, experiment.name, key, message, check)
