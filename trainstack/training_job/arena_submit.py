"""``arenaSubmit``: what ``arena submit mpi|tf|pytorch`` gives every job beyond its flags.

Facts (kubeflow/arena v0.15.5, e30882c143cc2be32b7ed767ae0f78681892741b; the full table is
docs/arena-parity.md):

- env ``workers`` (``--workers``) and ``gpus`` (``--gpus``) on every container
  (pkg/argsbuilder/submit.go:653-660, ``setJobInfoToEnv``);
- ``NVIDIA_VISIBLE_DEVICES=void`` on every container when ``--gpus`` is 0
  (submit.go:629-645);
- labels ``app``, ``release`` (the job's name) and ``createdBy`` (the kind) on the job and
  its pods (charts/mpijob/templates/mpijob.yaml:9-17, 37-42; the tfjob and pytorchjob
  charts alike), which Arena's own commands select pods by (pkg/apis/utils/training.go:
  22-36);
- annotation ``requestGPUsOfJobOwner`` on the job and its pods: the GPUs of the job
  (submit.go:670-673), read by ``arena top`` (pkg/training/gpu.go:34-49).

What differs by framework is its spec's :class:`~trainstack.training_job.frameworks.
run_defaults.ArenaSettings` (``FrameworkSpec.arena``, sourced in the framework's package):
the roles ``--workers`` counts (PyTorch's master too), the roles whose GPUs the annotation
counts, the value of ``app``, and the roles hidden from the GPUs when they have none
(TensorFlow's parameter servers). A framework without them has no ``arena submit``
command, and ``arenaSubmit`` is refused for it.

Arena's defaults for what the job leaves null: ``trainstack.training_job.defaults``.
Not reproduced: the submitter's identity (label ``arena.kubeflow.org/uid``, annotation
``arena.kubeflow.org/username``: the machine that ran ``arena submit``), and the labels
``chart``/``heritage`` naming Arena's own chart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trainstack.training_job.frameworks import FRAMEWORKS, Violation, framework

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

ENV = ("workers", "gpus", "NVIDIA_VISIBLE_DEVICES")
LABELS = ("app", "release", "createdBy")
GPU_ANNOTATION = "requestGPUsOfJobOwner"
NO_GPU = "void"


def arena_workers(job: TrainingJob) -> int:
    """``--workers``: the pods of the roles Arena counts as workers (a PyTorch job's
    master among them); 0 for a framework arena submit has no command for."""
    spec = framework(job.framework)
    counted = spec.arena.workers if spec.arena else ()
    return sum(pods.replicas for pods in spec.role_pods(job) if pods.role in counted)


def arena_env(job: TrainingJob, role: str, gpus: int) -> dict[str, str]:
    """The variables Arena sets on the containers of ``role`` (with ``gpus`` each)."""
    arena = framework(job.framework).arena
    if not job.arena_submit or arena is None:
        return {}
    env = {"gpus": str(job.worker.gpus), "workers": str(arena_workers(job))}
    if job.worker.gpus == 0 or (role in arena.hides_gpus and gpus == 0):
        env["NVIDIA_VISIBLE_DEVICES"] = NO_GPU
    return env


def arena_labels(job: TrainingJob, release: str) -> dict[str, str]:
    """Arena's labels on the job and its pods."""
    spec = framework(job.framework)
    if not job.arena_submit or spec.arena is None:
        return {}
    return {"app": spec.arena.app, "createdBy": spec.kind, "release": release}


def requested_gpus(job: TrainingJob) -> int:
    """Arena's ``requestGPUsOfJobOwner``: the GPUs of the pods of the roles it counts."""
    spec = framework(job.framework)
    counted = spec.arena.gpu_roles if spec.arena else ()
    return sum(pods.replicas * pods.gpus for pods in spec.pods(job) if pods.role in counted)


def submits() -> list[str]:
    """The frameworks ``arena submit`` has a command for, in the registry's order."""
    return [spec.name for spec in FRAMEWORKS if spec.arena is not None]


def arena_submit_rules(job: TrainingJob) -> list[Violation]:
    """A job that says it runs what ``arena submit`` ran: a framework Arena submits, and
    none of the variables, labels or annotation Arena sets written by hand."""
    if not job.arena_submit:
        return []
    if framework(job.framework).arena is None:
        return [
            Violation(
                "arenaSubmit",
                True,
                f"false with framework {job.framework} (arena submit has no such job: "
                f"{', '.join(submits())})",
            )
        ]
    spec = framework(job.framework)
    found: list[Violation] = []
    sources: dict[str, tuple[dict[str, Any], str, int]] = {
        "env": (job.env, "worker", job.worker.gpus)
    }
    for pods in spec.role_pods(job):
        key = f"{spec.role(pods.role).values_key}.env"
        sources.setdefault(key, (spec.role_settings(job, pods.role).env, pods.role, pods.gpus))
    for key, (env, role, gpus) in sources.items():
        set_by_arena = arena_env(job, role, gpus)
        for name in ENV:
            value = env.get(name)
            if value is not None and name in set_by_arena:
                found.append(_written(f"{key}.{name}", value, set_by_arena[name]))
    for name in LABELS:
        if name in job.labels:
            found.append(
                Violation(
                    f"labels.{name}",
                    job.labels[name],
                    "unset with arenaSubmit (Arena's labels app, release and createdBy are "
                    "the chart's)",
                )
            )
    for key, written in (
        ("annotations", job.annotations),
        ("podAnnotations", job.pod_annotations),
    ):
        if GPU_ANNOTATION in written:
            found.append(
                _written(
                    f"{key}.{GPU_ANNOTATION}", written[GPU_ANNOTATION], str(requested_gpus(job))
                )
            )
    return found


def _written(key: str, value: Any, arena: str) -> Violation:
    shown = value if isinstance(value, str) else "a valueFrom reference"
    return Violation(key, shown, f"unset with arenaSubmit (arena submit sets it: {arena})")
