"""``TrainingJob``: the values of the training-job chart, as one validated model.

The chart's ``values.yaml``, ``values.schema.json`` and README are generated from this
model, so a key means the same in Python, in Helm and in the documentation. The release
name is not a value: the chart names everything after ``.Release.Name``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails

from trainstack.base_model import StrictModel, constraint
from trainstack.training_job.frameworks import MpiSettings, PyTorchSettings, TensorFlowSettings
from trainstack.training_job.roles import Worker
from trainstack.training_job.rules import violations
from trainstack.training_job.run_policy import RunPolicy
from trainstack.training_job.scheduling import Scheduling
from trainstack.training_job.security import Network, Security
from trainstack.training_job.storage import Dataset, HostPath, Results, SharedMemory
from trainstack.training_job.types import AbsolutePath, AnnotationMap, DnsName, EnvMap, LabelMap

Framework = Literal["mpi", "tensorflow", "pytorch"]
OperatorApi = Literal["kubeflow", "arena"]


class Image(StrictModel):
    """The container image every role runs unless the role names its own."""

    name: str = Field(
        min_length=1,
        pattern=r"^\S+$",
        description="Full image reference, e.g. registry.example.com/team/train:v1.",
    )
    pull_policy: Literal["Always", "IfNotPresent", "Never"] = Field(
        default="IfNotPresent", description="When the kubelet pulls the image."
    )
    pull_secrets: list[DnsName] = Field(
        default_factory=list,
        description="Secrets holding the credentials of a private registry.",
        examples=[["acr-credentials"]],
    )


class TrainingJob(StrictModel):
    """One distributed training run: what to run, on how many pods and GPUs, with which data."""

    framework: Framework = Field(
        default="mpi",
        description="mpi (Horovod/AIACC: MPIJob v2beta1), tensorflow (TFJob) or pytorch "
        "(PyTorchJob).",
    )
    image: Image = Field(description="The container image.")
    command: str = Field(
        min_length=1,
        description="Training command, run as <shell> -c <command> (by the launcher for MPI, "
        "by every replica otherwise); kept exactly as written.",
    )
    args: list[str] = Field(
        default_factory=list,
        description='Arguments passed to the command as $1, $2... ("$@" in the command).',
        examples=[["--batch-size", "256"]],
    )
    shell: str = Field(
        default="sh", min_length=1, pattern=r"^\S+$", description="Shell that runs the command."
    )
    working_dir: AbsolutePath | None = Field(
        default=None, description="Working directory of the containers; null: the image's."
    )
    env: EnvMap = Field(
        default_factory=dict,
        description="Environment variables of every container (set in name order).",
        examples=[{"NCCL_DEBUG": "INFO"}],
    )
    labels: LabelMap = Field(
        default_factory=dict,
        description="Labels added to the job and its pods.",
        examples=[{"team": "vision"}],
    )
    annotations: AnnotationMap = Field(
        default_factory=dict,
        description="Annotations added to the job and its pods.",
        examples=[{"example.com/owner": "vision-team"}],
    )
    worker: Worker = Field(default_factory=Worker, description="The worker pods.")
    mpi: MpiSettings = Field(default_factory=MpiSettings, description="MPI settings.")
    tensorflow: TensorFlowSettings = Field(
        default_factory=TensorFlowSettings, description="TensorFlow settings."
    )
    pytorch: PyTorchSettings = Field(
        default_factory=PyTorchSettings, description="PyTorch settings."
    )
    datasets: list[Dataset] = Field(
        default_factory=list,
        description="Claims mounted into every training pod; each claim at most once.",
        examples=[[{"claimName": "imagenet-data", "mountPath": "/data", "readOnly": False}]],
    )
    results: Results = Field(default_factory=Results, description="Results volume.")
    shm: SharedMemory = Field(default_factory=SharedMemory, description="Shared memory.")
    host_paths: list[HostPath] = Field(
        default_factory=list,
        description="Node directories mounted into the training pods (off unless listed).",
        examples=[[{"path": "/mnt/cache", "mountPath": "/cache", "readOnly": True}]],
    )
    network: Network = Field(default_factory=Network, description="Networking.")
    security: Security = Field(default_factory=Security, description="Privileges.")
    scheduling: Scheduling = Field(default_factory=Scheduling, description="Scheduling.")
    run_policy: RunPolicy = Field(default_factory=RunPolicy, description="Run policy.")
    operator_api: OperatorApi = Field(
        default="kubeflow",
        description="How the operator serving the job spells it: kubeflow (upstream "
        "mpi-operator v2beta1 and training-operator v1: spec.runPolicy) or arena (the tf- and "
        "pytorch-operators bundled by Arena/ack-arena: run-policy fields under spec, no "
        "seccompProfile, no schedulingPolicy, no nprocPerNode, no MPIJob v2beta1). trainstack "
        "sets it from the stack's operators.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> TrainingJob:
        found = violations(self)
        if found:
            details = [
                InitErrorDetails(
                    type=constraint(v.field, v.found, v.allowed), loc=(), input=v.found
                )
                for v in found
            ]
            raise ValidationError.from_exception_data(type(self).__name__, details)
        return self

    def chart_values(self) -> dict[str, Any]:
        """The chart values of this job (only the chart's keys, even for a subclass).

        A null is left out where the chart's default is null too, and kept where the
        default is a value (``security.seccompProfile: null``): Helm deletes a key given as
        null, so the template sees it unset, as trainstack does.
        """
        dumped = _without_default_nulls(self, self.model_dump(mode="json", by_alias=True))
        keys = {field.alias or name for name, field in TrainingJob.model_fields.items()}
        return {key: value for key, value in dumped.items() if key in keys}


def _without_default_nulls(model: BaseModel, dumped: dict[str, Any]) -> dict[str, Any]:
    """``dumped`` (of ``model``) without the nulls that equal their field's default."""
    result: dict[str, Any] = {}
    for name, field in type(model).model_fields.items():
        key = field.alias or name
        if key not in dumped:
            continue
        value, item = dumped[key], getattr(model, name)
        if value is None:
            if field.get_default(call_default_factory=True) is not None:
                result[key] = None
        elif isinstance(item, BaseModel) and isinstance(value, dict):
            result[key] = _without_default_nulls(item, value)
        elif isinstance(value, list):
            result[key] = [
                _without_default_nulls(entry, dumped_entry)
                if isinstance(entry, BaseModel) and isinstance(dumped_entry, dict)
                else dumped_entry
                for entry, dumped_entry in zip(item, value, strict=True)
            ]
        else:
            result[key] = value
    return result


SECTIONS: dict[str, tuple[str, ...]] = {
    "Job": (
        "framework",
        "image",
        "command",
        "args",
        "shell",
        "workingDir",
        "env",
        "labels",
        "annotations",
    ),
    "Workers": ("worker",),
    "MPI (framework: mpi)": ("mpi",),
    "TensorFlow (framework: tensorflow)": ("tensorflow",),
    "PyTorch (framework: pytorch)": ("pytorch",),
    "Storage": ("datasets", "results", "shm", "hostPaths"),
    "Networking and security": ("network", "security"),
    "Scheduling": ("scheduling",),
    "Run policy": ("runPolicy",),
    "Operator API": ("operatorApi",),
}
"""The ``## @section`` groups of values.yaml and the README, in order (top-level keys)."""
