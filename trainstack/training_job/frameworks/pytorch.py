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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX
from trainstack.training_job.frameworks.pytorch_elastic import ElasticPolicy
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
from trainstack.training_job.roles import RoleOverrides, port_field
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

    replicas: int = Field(
        default=1,
        ge=0,
        le=1,
        description="1 runs a master; 0 runs Workers only (elastic jobs; worker 0 is rank 0).",
    )
    gpus: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="GPUs of the master; null: the same as worker.gpus.",
    )
    port: PortNumber | None = port_field()


class PyTorchSettings(StrictModel):
    """A PyTorchJob (kubeflow.org/v1): one master (rank 0) and the workers."""

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


def _role_pods(job: TrainingJob) -> list[RolePods]:
    master, worker = job.pytorch.master, job.worker
    master_gpus = worker.gpus if master.gpus is None else master.gpus
    return [
        RolePods("master", "job.pytorch.master", master.replicas, master_gpus, master.resources),
        RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources),
    ]


def _rules(job: TrainingJob) -> list[Violation]:
    pytorch, workers = job.pytorch, job.worker.replicas
    found: list[Violation] = []
    if pytorch.master.replicas == 0 and workers == 0:
        found.append(
            Violation(
                "worker.replicas",
                workers,
                "at least 1 when pytorch.master.replicas is 0 (a PyTorchJob needs a master or "
                "a worker)",
            )
        )
    elastic = pytorch.elastic_policy
    if elastic is None:
        return found
    if workers == 0:
        found.append(
            Violation(
                "worker.replicas",
                workers,
                "at least 1 with pytorch.elasticPolicy (the operator scales the workers)",
            )
        )
    low, high = elastic.min_replicas, elastic.max_replicas
    if low is not None and high is not None and low > high:
        found.append(
            Violation("pytorch.elasticPolicy.minReplicas", low, f"at most maxReplicas ({high})")
        )
    elif workers and low is not None and workers < low:
        found.append(
            Violation("worker.replicas", workers, f"at least elasticPolicy.minReplicas ({low})")
        )
    elif workers and high is not None and workers > high:
        found.append(
            Violation("worker.replicas", workers, f"at most elasticPolicy.maxReplicas ({high})")
        )
    return found


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
        "`worker.replicas` workers, elastic with `pytorch.elasticPolicy`.",
        keywords=("pytorch",),
    ),
    settings=KUBEFLOW_JOB_SETTINGS
    | {"pytorch.nprocPerNode", "pytorch.elasticPolicy", "pytorch.master.replicas"},
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
