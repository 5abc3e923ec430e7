"""Settings that only one framework reads: ``mpi``, ``tensorflow``, ``pytorch``, ``trainjob``.

The chart ignores the sections of the frameworks not selected by ``framework``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX, MAX_REPLICAS
from trainstack.frameworks.mpi import DEFAULT_SSH_PORT
from trainstack.training_job.roles import Chief, Evaluator, Launcher, Master, ParameterServers
from trainstack.training_job.types import AbsolutePath, CountOrText, Quantity

MpiImplementation = Literal["OpenMPI", "Intel", "MPICH"]
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


class MpiSettings(StrictModel):
    """An MPIJob (kubeflow.org/v2beta1): one launcher runs mpirun over SSH into the workers."""

    implementation: MpiImplementation = Field(
        default="OpenMPI",
        description="MPI implementation in the image: OpenMPI (Horovod, AIACC), Intel or MPICH.",
    )
    slots_per_worker: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="MPI processes per worker; null: worker.gpus (1 when workers have no GPU).",
    )
    mounts_on_launcher: bool = Field(
        default=True,
        description="Mount the datasets, results and host paths on the launcher too: the "
        "launcher runs the script that sits on the dataset.",
    )
    ssh_port: int = Field(
        default=DEFAULT_SSH_PORT,
        ge=1,
        le=65535,
        description="Port of the workers' sshd. With network.hostNetwork it must not be 22 "
        "(the node's own sshd has it); any other port needs implementation OpenMPI.",
    )
    worker_command: list[str] | None = Field(
        default_factory=lambda: ["/usr/sbin/sshd", "-De"],
        min_length=1,
        description="Command of the workers (exec form): the v2beta1 launcher reaches them "
        "through sshd. '-p <mpi.sshPort>' is appended (to workerArgs when set) when the port "
        "is not 22; null runs the image's ENTRYPOINT, which must start sshd.",
    )
    worker_args: list[str] = Field(
        default_factory=list,
        description="Arguments of the workers' command (the container's args).",
        examples=[["-De", "-f", "/home/mpiuser/.sshd_config"]],
    )
    ssh_auth_mount_path: AbsolutePath = Field(
        default="/root/.ssh",
        description="Where the operator mounts the job's SSH keys: the home of the user the "
        "image runs as (root by default).",
    )
    launcher: Launcher = Field(
        default_factory=Launcher, description="The launcher pod (no GPU, one replica)."
    )


class TensorFlowSettings(StrictModel):
    """A TFJob (kubeflow.org/v1): chief, workers, parameter servers and evaluator."""

    success_policy: Literal["ChiefWorker", "AllWorkers"] = Field(
        default="ChiefWorker",
        description="When the job succeeds: ChiefWorker (the chief, or worker 0 without a "
        "chief) or AllWorkers.",
    )
    chief: Chief = Field(default_factory=Chief, description="The chief replica.")
    ps: ParameterServers = Field(
        default_factory=ParameterServers, description="The parameter servers."
    )
    evaluator: Evaluator = Field(default_factory=Evaluator, description="The evaluator.")


RdzvBackend = Literal["c10d", "etcd", "etcd-v2"]


def _only_when(kind: str, wanted: str, other: str) -> dict[str, Any]:
    return {
        "if": {"properties": {"type": {"const": kind}}},
        "then": {"required": [wanted], "not": {"required": [other]}},
    }


class ResourceTarget(StrictModel):
    """The value the autoscaler keeps a resource at, on average over the workers."""

    model_config = {
        "json_schema_extra": {
            "allOf": [
                _only_when("Utilization", "averageUtilization", "averageValue"),
                _only_when("AverageValue", "averageValue", "averageUtilization"),
            ]
        }
    }

    type: Literal["Utilization", "AverageValue"] = Field(
        description="Utilization (percent of the request) or AverageValue (a quantity)."
    )
    average_utilization: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="With Utilization: percent of the pods' request.",
    )
    average_value: Quantity | None = Field(
        default=None, description="With AverageValue: the amount per pod, e.g. 2 or 8Gi."
    )

    @model_validator(mode="after")
    def _value_of_its_type(self) -> ResourceTarget:
        wanted = "averageUtilization" if self.type == "Utilization" else "averageValue"
        given = {
            "averageUtilization": self.average_utilization,
            "averageValue": self.average_value,
        }
        if given[wanted] is None or any(
            value is not None for key, value in given.items() if key != wanted
        ):
            raise constraint(wanted, given[wanted], f"set, and only it, with type {self.type}")
        return self


class ResourceMetricSource(StrictModel):
    """A resource of the worker pods (CPU or memory)."""

    name: Literal["cpu", "memory"] = Field(description="cpu or memory.")
    target: ResourceTarget = Field(description="The value to keep.")


class ElasticMetric(StrictModel):
    """A HorizontalPodAutoscaler metric (autoscaling/v2) that scales the workers."""

    type: Literal["Resource"] = Field(description="Resource: CPU or memory of the workers.")
    resource: ResourceMetricSource = Field(description="Which resource, at what target.")


class ElasticPolicy(StrictModel):
    """Elastic training (torchrun rendezvous): workers may come and go between min and max."""

    min_replicas: int | None = Field(
        default=None,
        ge=1,
        le=MAX_REPLICAS,
        description="Fewest workers; null: maxReplicas (or worker.replicas).",
    )
    max_replicas: int | None = Field(
        default=None,
        ge=1,
        le=MAX_REPLICAS,
        description="Most workers; null: minReplicas (or worker.replicas).",
    )
    rdzv_backend: RdzvBackend | None = Field(
        default=None, description="Rendezvous backend: c10d (no extra service), etcd or etcd-v2."
    )
    rdzv_host: str | None = Field(
        default=None, min_length=1, description="Host of the rendezvous (etcd); null: worker 0."
    )
    rdzv_port: int | None = Field(
        default=None, ge=1, le=65535, description="Port of the rendezvous."
    )
    rdzv_id: str | None = Field(
        default=None, min_length=1, description="Rendezvous ID; null: the job's UID."
    )
    rdzv_conf: dict[str, str] = Field(
        default_factory=dict,
        description="Extra rendezvous settings (torchrun --rdzv-conf), by key.",
        examples=[{"timeout": "900"}],
    )
    standalone: bool | None = Field(
        default=None, description="torchrun --standalone (a single node, local rendezvous)."
    )
    max_restarts: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="Restarts of the worker group before it fails.",
    )
    metrics: list[ElasticMetric] = Field(
        default_factory=list,
        description="Scale the workers with a HorizontalPodAutoscaler the operator creates "
        "(between minReplicas and maxReplicas); empty: no autoscaler.",
        examples=[
            [
                {
                    "type": "Resource",
                    "resource": {
                        "name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": 80},
                    },
                }
            ]
        ],
    )


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
