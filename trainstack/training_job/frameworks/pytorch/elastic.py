"""A PyTorchJob's elastic policy (kubeflow.org/v1 ``spec.elasticPolicy``).

Facts from kubeflow/training-operator v1 (pkg/apis/kubeflow.org/v1/pytorch_types.go,
pkg/controller.v1/pytorch/elastic.go, hpa.go): the rendezvous settings become the
``PET_RDZV_*`` variables of torchrun, and metrics a HorizontalPodAutoscaler on the workers.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX, MAX_REPLICAS
from trainstack.training_job.types import Quantity

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
