"""The pods of a job: how many of each role, their GPUs, resources and per-role overrides.

Every framework has ``worker`` (top level); the other roles live with their framework
(``mpi.launcher``, ``tensorflow.chief``/``ps``/``evaluator``, ``pytorch.master``). Every
role takes the same overrides (image, resources, node selector, tolerations, env, restart
policy, probes, security) from :class:`RoleOverrides`, so that each documents them with
the same words; a role adds its counts and, when its operator names one, its port.
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


class RoleOverrides(StrictModel):
    """What a role may set over the job's values: image, resources, placement, env,
    restarts, probes and security. Each role adds its own counts and port."""

    image: str | None = Field(
        default=None,
        min_length=1,
        pattern=r"^\S+$",
        description="Image of this role; null uses image.name.",
    )
    resources: Resources = Field(
        default_factory=Resources, description="CPU and memory requests and limits of this role."
    )
    node_selector: LabelMap = Field(
        default_factory=dict,
        description="Node labels this role's pods require, merged over "
        "scheduling.nodeSelector. trainstack puts the labels of the role's node pool here "
        "unless the role (or scheduling) sets its own.",
        examples=[{"aliyun.accelerator/nvidia_name": "Tesla-V100-SXM2-32GB"}],
    )
    tolerations: list[Toleration] = Field(
        default_factory=list,
        description="Taints this role's pods tolerate, added to scheduling.tolerations "
        "(trainstack adds those of the role's node pool).",
        examples=[[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]],
    )
    env: EnvMap = Field(
        default_factory=dict,
        description="Environment variables of this role only, set over env (same forms).",
        examples=[{"NVIDIA_VISIBLE_DEVICES": "void"}],
    )
    restart_policy: RestartPolicy | None = Field(
        default=None, description="Restart policy of this role; null: runPolicy.restartPolicy."
    )
    readiness_probe: Probe | None = Field(
        default=None,
        description="Readiness probe of this role's container (not ready: no traffic, and "
        "the MPI launcher waits); null: none.",
    )
    liveness_probe: Probe | None = Field(
        default=None,
        description="Liveness probe of this role's container (failing: the container is "
        "restarted); null: none.",
    )
    security: RoleSecurity = Field(
        default_factory=RoleSecurity,
        description="User, group and capabilities of this role's pods, over security.",
    )

    @classmethod
    def documented_order(cls) -> tuple[str, ...]:
        """The role's fields as the chart lists them: its counts, the overrides, its port.

        pydantic puts inherited fields first; values.yaml, the schema and the README keep
        a role's ``replicas`` and ``gpus`` on top and its ``port`` last.
        """
        shared = tuple(RoleOverrides.model_fields)
        own = [name for name in cls.model_fields if name not in shared]
        last = [name for name in own if name in _LAST]
        return (*[name for name in own if name not in last], *shared, *last)


_LAST = ("port",)


def port_field() -> Any:
    """The ``port`` of a role whose operator names the training container's port (every
    role but the MPI launcher declares one)."""
    return Field(
        default=None,
        description="Port of this role's training container, named as the operator needs it "
        "(tfjob-port, pytorchjob-port); null: the operator's default (2222, 23456).",
    )


def single_replicas_field(role: str, without: str) -> Any:
    """``replicas`` of a role a job runs at most one of (PyTorch's master, TensorFlow's
    chief): 1 by default; ``without`` says what 0 runs instead."""
    return Field(default=1, ge=0, le=1, description=f"1 runs a {role}; 0 {without}")


def inherited_gpus_field(role: str) -> Any:
    """``gpus`` of a role that takes the workers' count unless it sets its own."""
    return Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description=f"GPUs of the {role}; null: the same as worker.gpus.",
    )


class Worker(RoleOverrides):
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
    restart_policy: RestartPolicy | None = Field(
        default=None,
        description="Restart policy of this role; null: runPolicy.restartPolicy; MPI workers: "
        "Never.",
    )
    port: PortNumber | None = port_field()
