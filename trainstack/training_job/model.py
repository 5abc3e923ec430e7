"""``TrainingJob``: the values of the training-job chart, as one validated model.

The chart's ``values.yaml``, ``values.schema.json`` and README are generated from this
model, so a key means the same in Python, in Helm and in the documentation. The release
name is not a value: the chart names everything after ``.Release.Name``.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationError, model_validator
from pydantic_core import InitErrorDetails

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN
from trainstack.training_job.code_sync import CodeSync
from trainstack.training_job.dialects import Dialect
from trainstack.training_job.env import EnvFrom, EnvMap
from trainstack.training_job.frameworks import FRAMEWORKS
from trainstack.training_job.frameworks.mpi.settings import MpiSettings
from trainstack.training_job.frameworks.pytorch import PyTorchSettings
from trainstack.training_job.frameworks.tensorflow import TensorFlowSettings
from trainstack.training_job.frameworks.trainjob import TrainJobSettings
from trainstack.training_job.preflight import Preflight
from trainstack.training_job.roles import Worker
from trainstack.training_job.rules import violations
from trainstack.training_job.run_policy import RunPolicy
from trainstack.training_job.scheduling import Scheduling
from trainstack.training_job.security import Network, Security
from trainstack.training_job.storage import Dataset, HostPath, Results, SharedMemory
from trainstack.training_job.tensorboard import TensorBoard
from trainstack.training_job.types import AbsolutePath, AnnotationMap, DnsName, LabelMap

Framework = Literal["mpi", "tensorflow", "pytorch", "trainjob"]
"""Every value of ``job.framework``: the names of the framework registry (a test holds them
equal)."""
ShellCommand = Annotated[str, StringConstraints(min_length=1)]
ExecCommand = Annotated[list[str], Field(min_length=1)]


class Image(StrictModel):
    """The container image every role runs unless the role names its own."""

    name: str = Field(
        min_length=1,
        pattern=rf"^(\S+|{PLACEHOLDER_PATTERN})$",
        description="Full image reference, e.g. registry.example.com/team/train:v1 (or a "
        "placeholder <...> until it is known: the program refuses to deploy it).",
    )
    pull_policy: Literal["Always", "IfNotPresent", "Never"] | None = Field(
        default=None,
        description="When the kubelet pulls the image; null: IfNotPresent (Always with "
        "arenaSubmit, as arena submit).",
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
        description="mpi (Horovod/AIACC: MPIJob v2beta1, ack-arena's v1alpha1), tensorflow "
        "(TFJob), pytorch (PyTorchJob) or trainjob (Kubeflow Trainer v2 TrainJob).",
    )
    arena_submit: bool = Field(
        default=False,
        description="Run as `arena submit mpi|tf|pytorch` ran it (docs/arena-parity.md): env "
        "workers and gpus on every container (NVIDIA_VISIBLE_DEVICES=void where Arena sets "
        "it), Arena's labels (app, release, createdBy) and annotation "
        "requestGPUsOfJobOwner, and Arena's defaults for what the job leaves null: "
        "workingDir /root, image.pullPolicy Always, mpi.mountsOnLauncher false, "
        "runPolicy.cleanPodPolicy (All for MPI), runPolicy.backoffLimit (0 for MPI and "
        "PyTorch) and Arena's restart policies.",
    )
    image: Image = Field(description="The container image.")
    command: ShellCommand | ExecCommand | None = Field(
        default=None,
        description="Training command (by the launcher for MPI, by every replica otherwise): "
        "a string runs as <shell> -c <command>, kept exactly as written; a list runs as "
        "written (exec form); null runs the image's ENTRYPOINT and CMD.",
    )
    args: list[str] = Field(
        default_factory=list,
        description='Arguments: $1, $2... ("$@") of a string command; the container\'s args '
        "(after a list command, or instead of the image's CMD) otherwise.",
        examples=[["--batch-size", "256"]],
    )
    shell: str = Field(
        default="sh", min_length=1, pattern=r"^\S+$", description="Shell that runs the command."
    )
    working_dir: AbsolutePath | None = Field(
        default=None,
        description="Working directory of the containers; null: the image's (/root with "
        "arenaSubmit, as arena submit).",
    )
    env: EnvMap = Field(
        default_factory=dict,
        description="Environment variables of every container (set in name order): a string, "
        "or {valueFrom: {fieldRef|secretKeyRef|configMapKeyRef|resourceFieldRef: ...}}.",
        examples=[
            {
                "NCCL_DEBUG": "INFO",
                "POD_NAME": {"valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                "WANDB_API_KEY": {
                    "valueFrom": {"secretKeyRef": {"name": "wandb", "key": "api-key"}}
                },
            }
        ],
    )
    env_from: list[EnvFrom] = Field(
        default_factory=list,
        description="Secrets and ConfigMaps whose every key becomes a variable of every "
        "training container.",
        examples=[[{"secretRef": {"name": "s3-credentials"}}]],
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
    pod_annotations: AnnotationMap = Field(
        default_factory=dict,
        description="Annotations added to the pods only (over annotations).",
        examples=[{"scheduling.k8s.io/group-name": "my-job"}],
    )
    worker: Worker = Field(
        default_factory=Worker, description="The worker pods (a TrainJob's nodes)."
    )
    mpi: MpiSettings = Field(default_factory=MpiSettings, description="MPI settings.")
    tensorflow: TensorFlowSettings = Field(
        default_factory=TensorFlowSettings, description="TensorFlow settings."
    )
    pytorch: PyTorchSettings = Field(
        default_factory=PyTorchSettings, description="PyTorch settings."
    )
    trainjob: TrainJobSettings = Field(
        default_factory=TrainJobSettings, description="Kubeflow Trainer v2 settings."
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
    code_sync: CodeSync = Field(default_factory=CodeSync, description="Code sync.")
    preflight: Preflight = Field(
        default_factory=Preflight, description="Checks every training pod runs first."
    )
    tensorboard: TensorBoard = Field(default_factory=TensorBoard, description="TensorBoard.")
    network: Network = Field(default_factory=Network, description="Networking.")
    security: Security = Field(default_factory=Security, description="Privileges.")
    scheduling: Scheduling = Field(default_factory=Scheduling, description="Scheduling.")
    run_policy: RunPolicy = Field(default_factory=RunPolicy, description="Run policy.")
    operator_api: Dialect = Field(
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
    for name, key, null_default in _dumped_fields(type(model)):
        if key not in dumped:
            continue
        value = dumped[key]
        if value is None:
            if not null_default:
                result[key] = None
        else:
            result[key] = _compact(getattr(model, name), value)
    return result


@functools.cache
def _dumped_fields(model_type: type[BaseModel]) -> tuple[tuple[str, str, bool], ...]:
    """Each field's attribute, its key in a dump, and whether its default is null (asked
    once per model class: a plan of 1,000 experiments dumps each job twice)."""
    return tuple(
        (name, field.alias or name, field.get_default(call_default_factory=True) is None)
        for name, field in model_type.model_fields.items()
    )


def _compact(item: Any, value: Any) -> Any:
    """``value`` (the dump of ``item``) with the default nulls of the models in it left out."""
    if isinstance(item, BaseModel) and isinstance(value, dict):
        return _without_default_nulls(item, value)
    if isinstance(item, list) and isinstance(value, list):
        return [_compact(entry, dumped) for entry, dumped in zip(item, value, strict=True)]
    if isinstance(item, dict) and isinstance(value, dict):
        return {key: _compact(item[key], dumped) for key, dumped in value.items()}
    return value


SECTIONS: dict[str, tuple[str, ...]] = {
    "Job": (
        "framework",
        "arenaSubmit",
        "image",
        "command",
        "args",
        "shell",
        "workingDir",
        "env",
        "envFrom",
        "labels",
        "annotations",
        "podAnnotations",
    ),
    "Workers": ("worker",),
    **{f"{spec.section_title} (framework: {spec.name})": (spec.name,) for spec in FRAMEWORKS},
    "Storage": ("datasets", "results", "shm", "hostPaths"),
    "Code sync and TensorBoard": ("codeSync", "tensorboard"),
    "Preflight": ("preflight",),
    "Networking and security": ("network", "security"),
    "Scheduling": ("scheduling",),
    "Run policy": ("runPolicy",),
    "Operator API": ("operatorApi",),
}
"""The ``## @section`` groups of values.yaml and the README, in order (top-level keys); a
framework's section is its settings, under its name, in the registry's order."""
