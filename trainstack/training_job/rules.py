"""Cross-field rules of a training job: combinations that each look valid but cannot run.

The framework's own rules come from its registry entry (``FrameworkSpec.rules``); the
rules here hold for every framework. The chart's ``training-job.validateValues`` helper
checks the same rules, in the same order and with the same words (the framework's in its
template's ``training-job.<framework>.validate``), so that Helm users and trainstack
users get one answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from trainstack.training_job.arena_submit import arena_submit_rules
from trainstack.training_job.dialects import ARENA_LACKS
from trainstack.training_job.frameworks import FrameworkSpec, Violation, framework
from trainstack.training_job.settings import setting

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

__all__ = ["Violation", "mount_paths", "total_pods", "violations"]

SHM_PATH = "/dev/shm"


def violations(job: TrainingJob) -> list[Violation]:
    """Every broken rule of ``job``, in a fixed order."""
    spec = framework(job.framework)
    return [
        *spec.rules(job),
        *_port_rules(job, spec),
        *_dataset_rules(job),
        *_mount_path_rules(job),
        *_operator_api_rules(job, spec),
        *_arena_submit_rules(job),
        *_gang_rules(job),
        *_tensorboard_rules(job),
    ]


def total_pods(job: TrainingJob) -> int:
    """How many pods the job starts (the default gang size)."""
    return sum(pods.replicas for pods in framework(job.framework).pods(job))


def _port_rules(job: TrainingJob, spec: FrameworkSpec) -> list[Violation]:
    """A role's ``port`` names the operator's port: frameworks without one take none."""
    if spec.port is not None:
        return []
    found = []
    keys = {role.values_key: role.name for role in spec.roles}  # one entry per values key
    for values_key, name in keys.items():
        port = getattr(spec.role_settings(job, name), "port", None)
        if port is not None:
            found.append(
                Violation(
                    f"{values_key}.port",
                    port,
                    f"null with framework {spec.name} (its operator names no port)",
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
    paths += framework(job.framework).reserved_mounts(job)
    if job.code_sync.enabled:
        paths.append(("codeSync.mountPath", job.code_sync.mount_path))
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


def _operator_api_rules(job: TrainingJob, spec: FrameworkSpec) -> list[Violation]:
    """What the older APIs of Arena's operators cannot say (their CRDs would drop it)."""
    if job.operator_api != "arena":
        return []
    if "arena" not in spec.dialects:
        return [
            Violation(
                "operatorApi",
                job.operator_api,
                f"kubeflow with framework {spec.name} (Arena's operators do not serve "
                f"{spec.kind} {spec.api_version})",
            )
        ]
    found: list[Violation] = []
    for key, allowed in ARENA_LACKS:
        used = setting(key)
        if key in spec.settings and used.used(job):
            found.append(Violation(key, used.value(job), allowed))
    return found


def _arena_submit_rules(job: TrainingJob) -> list[Violation]:
    """arenaSubmit: a job ``arena submit`` has, without by-hand copies of what it sets."""
    return arena_submit_rules(job)


def _tensorboard_rules(job: TrainingJob) -> list[Violation]:
    """TensorBoard reads the log directory from a claim the job mounts."""
    board = job.tensorboard
    if not board.enabled:
        return []
    claims = [(d.mount_path, f"datasets[{i}].mountPath") for i, d in enumerate(job.datasets)]
    if job.results.claim_name is not None:
        claims.append((job.results.mount_path, "results.mountPath"))
    where = ", ".join(f"{key} {path}" for path, key in claims) or "none: mount one"
    if board.log_dir is not None:
        normal = _normal(board.log_dir)
        for path, _ in claims:
            root = _normal(path)
            if normal == root or normal.startswith(root + "/"):
                return []
    return [
        Violation(
            "tensorboard.logDir",
            board.log_dir,
            f"a directory on a claim the job mounts (datasets, results): {where}",
        )
    ]
