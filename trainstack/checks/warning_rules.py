"""What does not stop a plan but often ruins a run."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding, warning
from trainstack.checks.pods import role_pods, total_gpus
from trainstack.config.stack import StackConfig
from trainstack.core.credentials import holds_credential
from trainstack.core.key_paths import dotted_path
from trainstack.core.quantity import parse_quantity
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import FrameworkSpec, framework

NCCL_SHM_MINIMUM = parse_quantity("1Gi")


def warning_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Warnings: small /dev/shm for NCCL jobs, GPU pods without memory limits, privileges."""
    return [found for experiment in experiments for found in _warnings(experiment, config)]


def _warnings(experiment: Experiment, config: StackConfig) -> list[Finding]:
    """Every warning rule's findings for one experiment."""
    spec = framework(experiment.job.framework)
    return [
        *_shared_memory(experiment),
        *_memory_limits(experiment, config),
        *_ttl_after_finished(experiment),
        *_privileged(experiment),
        *_host_network(experiment),
        *_framework_warnings(experiment, spec),
        *_injected_env(experiment, spec),
        *_plain_credentials(experiment, spec),
    ]


def _shared_memory(experiment: Experiment) -> list[Finding]:
    """A multi-GPU job without /dev/shm, or with less than NCCL needs."""
    job = experiment.job
    if total_gpus(job) <= 1:
        return []
    if not job.shm.enabled:
        return [
            _warn(
                experiment,
                "job.shm.enabled",
                "false on a multi-GPU job: NCCL falls back to the 64 MB default "
                "/dev/shm and fails or crawls; enable it with sizeLimit >= 1Gi",
                "sharedMemory",
            )
        ]
    if job.shm.size_limit is not None and parse_quantity(job.shm.size_limit) < NCCL_SHM_MINIMUM:
        return [
            _warn(
                experiment,
                "job.shm.sizeLimit",
                f"{job.shm.size_limit} is under 1Gi on a multi-GPU job: NCCL "
                "needs more shared memory",
                "sharedMemory",
            )
        ]
    return []


def _memory_limits(experiment: Experiment, config: StackConfig) -> list[Finding]:
    """GPU pods without a memory limit, when no LimitRange default gives them one."""
    # The namespace's LimitRange fills in a missing limit: only warn when nothing will.
    team = config.team(experiment.team) if experiment.team else None
    if team is not None and team.container_defaults.limit("memory") is not None:
        return []
    return [
        _warn(
            experiment,
            f"{role.key}.resources.limits.memory",
            f"{role.role} pods hold {role.gpus} GPU(s) without a memory "
            "limit: an over-committed node kills jobs; set one (or a "
            "namespace LimitRange default)",
            "memoryLimit",
        )
        for role in role_pods(experiment.job)
        if role.gpus and role.resources.limits.memory is None
    ]


def _ttl_after_finished(experiment: Experiment) -> list[Finding]:
    """A finished job the operator deletes comes back at the next ``pulumi up``."""
    ttl = experiment.job.run_policy.ttl_seconds_after_finished
    if ttl is None:
        return []
    return [
        _warn(
            experiment,
            "job.runPolicy.ttlSecondsAfterFinished",
            f"{ttl}: the operator "
            "deletes the finished job, and the next `pulumi up` creates "
            "it again and re-runs it; remove the experiment from the "
            "stack to clean up instead",
            "ttlAfterFinished",
        )
    ]


def _privileged(experiment: Experiment) -> list[Finding]:
    if not experiment.job.security.privileged:
        return []
    return [
        _warn(
            experiment,
            "job.security.privileged",
            "true: the containers get full access to the node",
            "privileged",
        )
    ]


def _host_network(experiment: Experiment) -> list[Finding]:
    if not experiment.job.network.host_network:
        return []
    return [
        _warn(
            experiment,
            "job.network.hostNetwork",
            "true: the pods share the node's network namespace",
            "hostNetwork",
        )
    ]


def _framework_warnings(experiment: Experiment, spec: FrameworkSpec) -> list[Finding]:
    """The framework's own warnings (its registry entry's ``warnings``)."""
    return [_warn(experiment, w.key, w.message, w.check) for w in spec.warnings(experiment.job)]


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
    return warning(experiment.source, experiment.release_name, key, message, check)
