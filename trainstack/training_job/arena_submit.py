"""``arenaSubmit``: what ``arena submit mpi|tf|pytorch`` gives every job beyond its flags.

Facts (kubeflow/arena v0.15.5, e30882c143cc2be32b7ed767ae0f78681892741b; the full table is
docs/arena-parity.md):

- env ``workers`` (``--workers``) and ``gpus`` (``--gpus``) on every container
  (pkg/argsbuilder/submit.go:653-660, ``setJobInfoToEnv``); for PyTorch ``--workers``
  counts the master, so ``workers`` is masters plus Workers (pkg/training/
  submit_pytorchjob.go:46-47 lowers the worker count after the env is set);
- ``NVIDIA_VISIBLE_DEVICES=void`` on every container when ``--gpus`` is 0
  (submit.go:629-645), and on TensorFlow parameter servers without GPUs
  (charts/tfjob/templates/tfjob.yaml:294-304);
- labels ``app`` (mpijob, tfjob, pytorchjob), ``release`` (the job's name) and
  ``createdBy`` (MPIJob, TFJob, PyTorchJob) on the job and its pods
  (charts/mpijob/templates/mpijob.yaml:9-17, 37-42; the tfjob and pytorchjob charts
  alike), which Arena's own commands select pods by (pkg/apis/utils/training.go:22-36);
- annotation ``requestGPUsOfJobOwner`` on the job and its pods: the job's GPUs, workers x
  gpus (submit.go:670-673; TensorFlow: chiefs, evaluators and workers, not parameter
  servers, submit_tfjob.go:505-516), read by ``arena top`` (pkg/training/gpu.go:34-49).

Arena's defaults for what the job leaves null: ``trainstack.training_job.defaults``.
Not reproduced: the submitter's identity (label ``arena.kubeflow.org/uid``, annotation
``arena.kubeflow.org/username``: the machine that ran ``arena submit``), and the labels
``chart``/``heritage`` naming Arena's own chart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trainstack.training_job.frameworks import Violation, framework
from trainstack.training_job.frameworks.pytorch import counts_master

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

SUBMITS = ("mpi", "tensorflow", "pytorch")
"""The frameworks ``arena submit`` has a command for (mpi, tf, pytorch)."""
ENV = ("workers", "gpus", "NVIDIA_VISIBLE_DEVICES")
LABELS = ("app", "release", "createdBy")
GPU_ANNOTATION = "requestGPUsOfJobOwner"
NO_GPU = "void"


def arena_workers(job: TrainingJob) -> int:
    """``--workers``: the workers, and a PyTorch job's master among them.

    With ``pytorch.countMasterAsWorker`` (Arena's own semantics) ``worker.replicas`` is
    already Arena's ``--workers``; without, the master is added to it.
    """
    if job.framework == "pytorch":
        if counts_master(job):
            return job.worker.replicas
        return job.worker.replicas + job.pytorch.master.replicas
    return job.worker.replicas


def arena_env(job: TrainingJob, role: str, gpus: int) -> dict[str, str]:
    """The variables Arena sets on the containers of ``role`` (with ``gpus`` each)."""
    if not job.arena_submit:
        return {}
    env = {"gpus": str(job.worker.gpus), "workers": str(arena_workers(job))}
    if job.worker.gpus == 0 or (job.framework == "tensorflow" and role == "ps" and gpus == 0):
        env["NVIDIA_VISIBLE_DEVICES"] = NO_GPU
    return env


def arena_labels(job: TrainingJob, release: str) -> dict[str, str]:
    """Arena's labels on the job and its pods."""
    if not job.arena_submit:
        return {}
    kind = framework(job.framework).kind
    return {"app": kind.lower(), "createdBy": kind, "release": release}


def requested_gpus(job: TrainingJob) -> int:
    """Arena's ``requestGPUsOfJobOwner``: the GPUs of the job's pods, parameter servers'
    aside."""
    return sum(
        pods.replicas * pods.gpus
        for pods in framework(job.framework).pods(job)
        if pods.role != "ps"
    )


def arena_submit_rules(job: TrainingJob) -> list[Violation]:
    """A job that says it runs what ``arena submit`` ran: a framework Arena submits, and
    none of the variables, labels or annotation Arena sets written by hand."""
    if not job.arena_submit:
        return []
    if job.framework not in SUBMITS:
        return [
            Violation(
                "arenaSubmit",
                True,
                f"false with framework {job.framework} (arena submit has no such job: "
                f"{', '.join(SUBMITS)})",
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
