"""``framework: pytorch``: a PyTorchJob (kubeflow.org/v1): a master (rank 0) and workers,
or workers only (elastic jobs).

Facts from kubeflow/training-operator v1 (pkg/apis/kubeflow.org/v1/pytorch_defaults.go,
pytorch_validation.go; pkg/controller.v1/pytorch/envvar.go, elastic.go, hpa.go): the
training container must be named ``pytorch``; the operator gives it the port
``pytorchjob-port`` (23456) unless the pod names one; replicas restart OnFailure by
default; at most one Master. With a Master it sets MASTER_ADDR, MASTER_PORT, WORLD_SIZE
and RANK (and their torchrun ``PET_*`` forms); with an elastic policy the rendezvous
(``PET_RDZV_*``, ``PET_NNODES`` min:max, ``PET_MAX_RESTARTS``), the rendezvous endpoint
being worker 0 unless ``rdzvHost`` says otherwise, and, with metrics, a
HorizontalPodAutoscaler on the workers. Since 1.9 an elastic policy needs Workers
(kubeflow/training-operator#2320).

``worker.replicas`` counts the master among the workers by default, as Arena's ``--workers``
does (``pytorch.countMasterAsWorker``): kubeflow/arena v0.15.5 (e30882c1)
pkg/training/submit_pytorchjob.go:46-50 sets the chart's ``workers`` to ``WorkerCount - 1``
after the builder, and charts/pytorchjob/templates/pytorchjob.yaml renders one Master plus
those Workers: ``arena submit pytorch --workers=2 --gpus=4`` is 2 pods and 8 GPUs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX
from trainstack.training_job.frameworks.pytorch.elastic import ElasticPolicy
from trainstack.training_job.frameworks.run_defaults import (
    ArenaSettings,
    RestartDefaults,
    RoleRestart,
    RunDefaults,
)
from trainstack.training_job.frameworks.spec import (
    KUBEFLOW_JOB_SETTINGS,
    ChartDocs,
    FrameworkSpec,
    Port,
    Role,
    RolePods,
    Violation,
)
from trainstack.training_job.pod import PortNumber
from trainstack.training_job.roles import (
    RoleOverrides,
    inherited_gpus_field,
    port_field,
    single_replicas_field,
)
from trainstack.training_job.types import CountOrText

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

NPROC_PATTERN = r"^(auto|cpu|gpu|[1-9][0-9]*)$"


NprocPerNode = Annotated[
    str,
    CountOrText(
        NPROC_PATTERN,
        minimum=1,
        words="auto, cpu, gpu or a count of at least 1",
        maximum=INT32_MAX,
        max_length=10,
        problem=lambda text: (
            f"a count of at most {INT32_MAX}" if text.isdigit() and int(text) > INT32_MAX else None
        ),
    ),
]
"""Processes per pod for torchrun: auto, cpu, gpu or a count (``4`` or ``"4"``)."""


class Master(RoleOverrides):
    """The PyTorch master: rank 0 (MASTER_ADDR points to it), or none for a Worker-only job."""

    replicas: int = single_replicas_field(
        "master", "runs Workers only (elastic jobs; worker 0 is rank 0)."
    )
    gpus: int | None = inherited_gpus_field("master")
    port: PortNumber | None = port_field()


class PyTorchSettings(StrictModel):
    """A PyTorchJob (kubeflow.org/v1): one master (rank 0) and the workers."""

    count_master_as_worker: bool = Field(
        default=True,
        description="Whether worker.replicas counts the master, as Arena's `--workers` does: "
        "`worker: {replicas: 2, gpus: 4}` is 1 Master + 1 Worker, 2 pods and 8 GPUs. false: "
        "worker.replicas Workers besides the master. No effect without a master "
        "(pytorch.master.replicas 0).",
    )

    nproc_per_node: NprocPerNode | None = Field(
        default=None,
        description="Processes per pod for torchrun: auto, cpu, gpu or a number; null leaves "
        "the operator's default.",
    )
    elastic_policy: ElasticPolicy | None = Field(
        default=None,
        description="Elastic training (spec.elasticPolicy); null: a fixed-size job. Usually "
        "with pytorch.master.replicas 0 (Worker-only).",
    )
    master: Master = Field(default_factory=Master, description="The master replica.")


def counts_master(job: TrainingJob) -> bool:
    """Whether ``worker.replicas`` counts the master (a master, and Arena's semantics)."""
    return job.pytorch.count_master_as_worker and job.pytorch.master.replicas > 0


def worker_pods(job: TrainingJob) -> int:
    """The Worker replicas rendered: ``worker.replicas``, less the master when it counts."""
    replicas = job.worker.replicas
    return max(replicas - 1, 0) if counts_master(job) else replicas


def _role_pods(job: TrainingJob) -> list[RolePods]:
    master, worker = job.pytorch.master, job.worker
    master_gpus, default = master.gpus, ""
    if master_gpus is None:
        master_gpus = worker.gpus
        default = (
            f"not set in the file: job.worker.gpus ({worker.gpus}) by default; set "
            "job.pytorch.master.gpus to give the master another count"
        )
    return [
        RolePods(
            "master", "job.pytorch.master", master.replicas, master_gpus, master.resources, default
        ),
        RolePods("worker", "job.worker", worker_pods(job), worker.gpus, worker.resources),
    ]


def _rules(job: TrainingJob) -> list[Violation]:
    pytorch, workers = job.pytorch, worker_pods(job)
    found: list[Violation] = []
    if job.worker.replicas == 0 and pytorch.master.replicas == 0:
        found.append(
            Violation(
                "worker.replicas",
                workers,
                "at least 1 when pytorch.master.replicas is 0 (a PyTorchJob needs a master or "
                "a worker)",
            )
        )
    elif job.worker.replicas == 0 and counts_master(job):
        found.append(
            Violation(
                "worker.replicas",
                0,
                "at least 1: it counts the master among the workers, as Arena's --workers "
                "(pytorch.countMasterAsWorker, true by default); a master alone is 1",
            )
        )
    elastic = pytorch.elastic_policy
    if elastic is None:
        return found
    if workers == 0:
        found.append(
            Violation(
                "worker.replicas",
                job.worker.replicas,
                "at least 2 with pytorch.elasticPolicy and a master (worker.replicas counts "
                "the master; the operator scales the Workers)"
                if counts_master(job)
                else "at least 1 with pytorch.elasticPolicy (the operator scales the workers)",
            )
        )
    low, high = elastic.min_replicas, elastic.max_replicas
    if low is not None and high is not None and low > high:
        found.append(
            Violation("pytorch.elasticPolicy.minReplicas", low, f"at most maxReplicas ({high})")
        )
    elif workers and low is not None and workers < low:
        found.append(Violation("worker.replicas", job.worker.replicas, _bound(job, "least", low)))
    elif workers and high is not None and workers > high:
        found.append(Violation("worker.replicas", job.worker.replicas, _bound(job, "most", high)))
    return found


def _bound(job: TrainingJob, which: str, bound: int) -> str:
    """An elastic bound on the Workers, in worker.replicas' terms (the master counted)."""
    name = "minReplicas" if which == "least" else "maxReplicas"
    if not counts_master(job):
        return f"at {which} elasticPolicy.{name} ({bound})"
    return (
        f"at {which} {bound + 1}: elasticPolicy.{name} ({bound}) Workers, and the master, "
        "which worker.replicas counts (pytorch.countMasterAsWorker)"
    )


SPEC = FrameworkSpec(
    name="pytorch",
    kind="PyTorchJob",
    group="kubeflow.org",
    version="v1",
    plural="pytorchjobs",
    replica_specs_key="pytorchReplicaSpecs",
    roles=(
        Role("master", "Master", "pytorch.master", trains=True, container="pytorch"),
        Role("worker", "Worker", "worker", trains=True, container="pytorch"),
    ),
    # The master, or worker 0 in a Worker-only job, is rank 0.
    reporting_role="master",
    kueue_integration="kubeflow.org/pytorchjob",
    role_pods=_role_pods,
    summary="PyTorch DDP and elastic torchrun: PyTorchJob v1",
    section_title="PyTorch",
    docs=ChartDocs(
        article="a",
        operator="training-operator",
        renders=" with one `Master` (or none: `pytorch.master.replicas: 0`) and "
        "`worker.replicas` - 1 workers (the master counts among `worker.replicas`, as Arena's "
        "`--workers`; `pytorch.countMasterAsWorker: false` for `worker.replicas` workers "
        "besides it), elastic with `pytorch.elasticPolicy`.",
        keywords=("pytorch",),
    ),
    settings=KUBEFLOW_JOB_SETTINGS
    | {"pytorch.nprocPerNode", "pytorch.elasticPolicy", "pytorch.master.replicas"},
    run_defaults=RunDefaults(restart=RestartDefaults("OnFailure")),
    # kubeflow/arena v0.15.5 (e30882c143cc2be32b7ed767ae0f78681892741b), docs/arena-parity.md
    arena=ArenaSettings(
        command="pytorch",
        app="pytorchjob",  # charts/pytorchjob/templates/pytorchjob.yaml, as mpijob's labels
        # --workers counts the master: env workers is set before
        # pkg/training/submit_pytorchjob.go:46-47 lowers the Workers by one
        workers=("master", "worker"),
        gpu_roles=("master", "worker"),  # workers x gpus: submit.go:670-673
        # Master Never, Worker OnFailure (charts/pytorchjob/templates/pytorchjob.yaml:48-50,
        # 346-349)
        restart=RestartDefaults("Never", (RoleRestart("worker", "OnFailure"),)),
        backoff_limit=0,  # --retry default 0 (submit.go:103-104), pytorchjob.yaml:34, 45
        # --clean-task-policy default Running (submit_pytorchjob.go:81-87): trainstack's too
    ),
    dialects=frozenset({"kubeflow", "arena"}),
    rules=_rules,
    port=Port("pytorchjob-port", 23456),
    injected_env=(
        "PYTHONUNBUFFERED",
        "MASTER_ADDR",
        "MASTER_PORT",
        "WORLD_SIZE",
        "RANK",
        "PET_MASTER_ADDR",
        "PET_MASTER_PORT",
        "PET_NNODES",
        "PET_NODE_RANK",
        "PET_NPROC_PER_NODE",
        "PET_RDZV_ENDPOINT",
        "PET_RDZV_BACKEND",
        "PET_RDZV_ID",
        "PET_RDZV_CONF",
        "PET_STANDALONE",
        "PET_MAX_RESTARTS",
    ),
)
