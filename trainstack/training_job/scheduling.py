"""Where and when pods run: node selection, taints, priority, scheduler and gang scheduling."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX, INT64_MAX
from trainstack.training_job.types import DnsName, LabelMap


class Toleration(StrictModel):
    """Lets the pods onto nodes with a matching taint (e.g. the GPU pool's)."""

    key: str | None = Field(default=None, min_length=1, description="Taint key; null: all keys.")
    operator: Literal["Exists", "Equal"] = Field(
        default="Equal", description="Equal matches key and value; Exists matches the key."
    )
    value: str | None = Field(default=None, description="Taint value (operator Equal).")
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] | None = Field(
        default=None, description="Taint effect to tolerate; null: all effects."
    )
    toleration_seconds: int | None = Field(
        default=None,
        ge=0,
        le=INT64_MAX,
        description="With NoExecute: how long the pod stays after tainting.",
    )


class Gang(StrictModel):
    """All-or-nothing start: the operator's gang scheduler (e.g. Volcano) starts every pod
    of the job together or none, so that half a job never holds GPUs waiting for the rest."""

    enabled: bool = Field(
        default=False,
        description="Write runPolicy.schedulingPolicy; needs an operator started with gang "
        "scheduling.",
    )
    min_available: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="Pods that must start together; null: every pod of the job.",
    )
    queue: str | None = Field(default=None, min_length=1, description="Scheduler queue.")
    schedule_timeout_seconds: int | None = Field(
        default=None,
        ge=1,
        le=INT32_MAX,
        description="Give up when the gang cannot start within this time.",
    )


class Scheduling(StrictModel):
    """Node selection, taints, priority and scheduler of every pod of the job."""

    node_selector: LabelMap = Field(
        default_factory=dict,
        description="Node labels every pod requires (roles add their own).",
        examples=[{"node.kubernetes.io/instance-type": "ecs.gn6e-c12g1.12xlarge"}],
    )
    tolerations: list[Toleration] = Field(
        default_factory=list,
        description="Taints the pods tolerate, e.g. the GPU node pool's.",
        examples=[[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]],
    )
    priority_class_name: DnsName | None = Field(
        default=None, description="PriorityClass of the pods (and of the gang)."
    )
    scheduler_name: str | None = Field(
        default=None, min_length=1, description="Scheduler of the pods; null: the default one."
    )
    worker_spread: Literal["none", "preferred", "required"] = Field(
        default="none",
        description="Place worker pods on different nodes: required (scale-out runs: one "
        "worker per node, or Pending), preferred (spread when possible) or none.",
    )
    gang: Gang = Field(default_factory=Gang, description="Gang scheduling.")
