"""The pods of a job: how many of each role, their GPUs, resources and per-role overrides.

Every framework has ``worker`` (top level); the other roles live in their framework's
section: ``mpi.launcher``, ``tensorflow.chief``/``ps``/``evaluator``, ``pytorch.master``.
The per-role overrides (image, resources, node selector, tolerations, env, restart
policy, probes, security, port) are declared by one function each so that every role
documents them with the same words.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX, MAX_REPLICAS
from trainstack.training_job.env import EnvMap
from trainstack.training_job.pod import PortNumber, Probe, RoleSecurity
from trainstack.training_job.run_policy import RestartPolicy
from trainstack.training_job.scheduling import Toleration
from trainstack.training_job.types import LabelMap, Quantity


class ResourceAmounts(StrictModel):
    """CPU and memory amounts; an unset amount is left to the namespace's LimitRange."""

    cpu: Quantity | None = Field(
        default=None, description="CPU cores, e.g. 8 or 500m; null leaves it unset."
    )
    memory: Quantity | None = Field(
        default=None,
        description="Memory, e.g. 32Gi; null leaves it unset. Memory is what kills jobs: "
        "the /dev/shm volume counts against the memory limit.",
    )


class Resources(StrictModel):
    """Requests and limits of one container (GPUs are set with ``gpus``, not here)."""

    requests: ResourceAmounts = Field(
        default_factory=ResourceAmounts, description="Resources the scheduler reserves."
    )
    limits: ResourceAmounts = Field(
        default_factory=ResourceAmounts, description="Resources the container may not exceed."
    )


def _image() -> Any:
    return Field(
        default=None,
        min_length=1,
        pattern=r"^\S+$",
        description="Image of this role; null uses image.name.",
    )


def _resources() -> Any:
    return Field(
        default_factory=Resources, description="CPU and memory requests and limits of this role."
    )


def _node_selector() -> Any:
    return Field(
        default_factory=dict,
        description="Node labels this role's pods require, merged over "
        "scheduling.nodeSelector. trainstack puts the labels of the role's node pool here "
        "unless the role (or scheduling) sets its own.",
        examples=[{"aliyun.accelerator/nvidia_name": "Tesla-V100-SXM2-32GB"}],
    )


def _tolerations() -> Any:
    return Field(
        default_factory=list,
        description="Taints this role's pods tolerate, added to scheduling.tolerations "
        "(trainstack adds those of the role's node pool).",
        examples=[[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]],
    )


def _env() -> Any:
    return Field(
        default_factory=dict,
        description="Environment variables of this role only, set over env (same forms).",
        examples=[{"NVIDIA_VISIBLE_DEVICES": "void"}],
    )


def _restart_policy(default: str = "runPolicy.restartPolicy") -> Any:
    return Field(default=None, description=f"Restart policy of this role; null: {default}.")


def _probe(kind: str, effect: str) -> Any:
    return Field(
        default=None, description=f"{kind} probe of this role's container ({effect}); null: none."
    )


def _security() -> Any:
    return Field(
        default_factory=RoleSecurity,
        description="User, group and capabilities of this role's pods, over security.",
    )


def _port(operator: str) -> Any:
    return Field(
        default=None,
        description=f"Port of this role's training container, named as {operator} needs it "
        "(tfjob-port, pytorchjob-port); null: the operator's default (2222, 23456).",
    )


READINESS = ("Readiness", "not ready: no traffic, and the MPI launcher waits")
LIVENESS = ("Liveness", "failing: the container is restarted")


class Worker(StrictModel):
    """The workers: the pods that train (every framework has them)."""

    replicas: int = Field(
        default=1,
        ge=0,
        le=MAX_REPLICAS,
        description="Number of worker pods. MPI needs at least 1; for TensorFlow and PyTorch "
        "0 runs the chief or master alone.",
    )
    gpus: int = Field(
        default=0,
        ge=0,
        le=INT32_MAX,
        description="GPUs per worker pod (nvidia.com/gpu, request = limit).",
    )
    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy(
        "runPolicy.restartPolicy; MPI workers: Never"
    )
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()
    port: PortNumber | None = _port("the operator")


class Launcher(StrictModel):
    """The MPI launcher: runs ``mpirun`` (the command), one pod, never a GPU."""

    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy()
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()


class Chief(StrictModel):
    """The TensorFlow chief: trains like a worker and also saves checkpoints and summaries."""

    replicas: int = Field(
        default=1,
        ge=0,
        le=1,
        description="1 runs a chief; 0 lets worker 0 act as chief (a TFJob needs one of them).",
    )
    gpus: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="GPUs of the chief; null: the same as worker.gpus.",
    )
    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy()
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()
    port: PortNumber | None = _port("the operator")


class ParameterServers(StrictModel):
    """TensorFlow parameter servers: hold the variables of ParameterServerStrategy."""

    replicas: int = Field(
        default=0, ge=0, le=MAX_REPLICAS, description="Number of parameter-server pods."
    )
    gpus: int = Field(default=0, ge=0, le=INT32_MAX, description="GPUs per parameter server.")
    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy()
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()
    port: PortNumber | None = _port("the operator")


class Evaluator(StrictModel):
    """The TensorFlow evaluator: evaluates checkpoints beside training."""

    replicas: int = Field(
        default=0, ge=0, le=1, description="1 runs an evaluator next to training; 0 none."
    )
    gpus: int = Field(default=0, ge=0, le=INT32_MAX, description="GPUs of the evaluator.")
    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy()
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()
    port: PortNumber | None = _port("the operator")


class Master(StrictModel):
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
    image: str | None = _image()
    resources: Resources = _resources()
    node_selector: LabelMap = _node_selector()
    tolerations: list[Toleration] = _tolerations()
    env: EnvMap = _env()
    restart_policy: RestartPolicy | None = _restart_policy()
    readiness_probe: Probe | None = _probe(*READINESS)
    liveness_probe: Probe | None = _probe(*LIVENESS)
    security: RoleSecurity = _security()
    port: PortNumber | None = _port("the operator")
