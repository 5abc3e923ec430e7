"""Where ``results collect`` reads GPU telemetry: a Prometheus that scrapes NVIDIA's DCGM
exporter (``trainstack:telemetry``), and the SM-active floor below which a run is flagged.

Two ways to reach it, as the stack says:

- ``service``: a Prometheus inside the cluster, through the API server's service proxy
  (``/api/v1/namespaces/NS/services/SCHEME:NAME:PORT/proxy/``), with the kubeconfig's
  own credentials (the user needs ``get`` on ``services/proxy`` there);
- ``http-api``: a Prometheus HTTP API URL outside the cluster, such as Alibaba Cloud's
  Managed Service for Prometheus (ARMS), with credentials, when it needs any, read at
  collect time from a Kubernetes Secret the stack names (never from the stack file: the
  stack holds no credential but the kubeconfig, :mod:`trainstack.config.secret_keys`).

No ``prometheus``: nothing is read, and every run recorded says "telemetry not collected".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import DnsLabel

DEFAULT_SM_ACTIVE_FLOOR = 0.3
"""A run whose GPUs were busy less than this share of cycles (DCGM_FI_PROF_SM_ACTIVE,
mean over the run) is flagged: a GPU that waits on its input most of the time measures
the input pipeline, not the acceleration."""
DEFAULT_RESOLUTION_SECONDS = 15
"""The step of the range queries: the dcgm-exporter chart's ServiceMonitor scrapes every
15 s (deployment/values.yaml at 4.5.3-4.8.2, ``serviceMonitor.interval``)."""

PrometheusUrlText = Annotated[
    str,
    StringConstraints(pattern=r"^https?://[^\s@?#]+$", max_length=2048),
]
LabelName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z_][a-zA-Z0-9_]*$", max_length=128)]


class SecretCredentials(StrictModel):
    """A Kubernetes Secret holding what the Prometheus URL needs, read by ``results
    collect`` with the kubeconfig's user (``get`` on that Secret), kept in memory only."""

    namespace: DnsLabel = Field(description="The Secret's namespace.")
    name: DnsLabel = Field(description="The Secret's name.")
    kind: Literal["basic", "bearer"] = Field(
        description="`basic`: the Secret's `username` and `password` keys (a "
        "`kubernetes.io/basic-auth` Secret; ARMS V2 instances take an AccessKey pair so); "
        "`bearer`: its `token` key, sent as `Authorization: Bearer <token>`."
    )


class PrometheusService(StrictModel):
    """A Prometheus inside the cluster, reached through the API server's service proxy."""

    kind: Literal["service"] = Field(description="`service`.")
    namespace: DnsLabel = Field(description="The Service's namespace, e.g. `monitoring`.")
    name: DnsLabel = Field(description="The Service's name, e.g. `prometheus-k8s`.")
    port: Annotated[int, Field(ge=1, le=65535)] | DnsLabel = Field(
        description="The Service's port: its number or its name, e.g. `9090` or `web`."
    )
    scheme: Literal["http", "https"] = Field(
        default="http", description="How the proxy talks to it: `http` or `https`."
    )


class PrometheusUrl(StrictModel):
    """A Prometheus HTTP API outside the cluster, e.g. ARMS's HTTP API URL."""

    kind: Literal["http-api"] = Field(description="`http-api`.")
    url: PrometheusUrlText = Field(
        description="The HTTP API URL, up to (not including) `/api/v1`, as the provider "
        "shows it (ARMS: the instance's Settings tab); no credentials or query in it."
    )
    credentials: SecretCredentials | None = Field(
        default=None, description="The Kubernetes Secret with its credentials; none: none sent."
    )


Prometheus = Annotated[PrometheusService | PrometheusUrl, Field(discriminator="kind")]


class DcgmLabels(StrictModel):
    """The label names the DCGM exporter's series carry in this Prometheus."""

    pod: LabelName = Field(
        default="exported_pod",
        description="The pod using the GPU: dcgm-exporter writes `pod`; a ServiceMonitor "
        "with `honorLabels: false` (the exporter chart's default) makes it `exported_pod`.",
    )
    namespace: LabelName = Field(
        default="exported_namespace",
        description="The pod's namespace (`namespace`, or `exported_namespace` likewise).",
    )
    node: LabelName = Field(
        default="Hostname",
        description="The node: dcgm-exporter 4.5.3-4.8.2 writes `Hostname` (its chart sets "
        "it to the node's name); later releases `hostname`.",
    )
    gpu: LabelName = Field(default="gpu", description="The GPU's index on its node.")


class Telemetry(StrictModel):
    """GPU telemetry of each run, read from Prometheus by ``results collect``."""

    prometheus: Prometheus | None = Field(
        default=None,
        description="Where the DCGM exporter's series are; none: telemetry is not collected.",
    )
    labels: DcgmLabels = Field(
        default_factory=lambda: DcgmLabels.model_validate({}),
        description="The label names of the exporter's series there.",
    )
    sm_active_floor: Annotated[float, Field(ge=0, le=1)] = Field(
        default=DEFAULT_SM_ACTIVE_FLOOR,
        description="A run whose GPUs' mean SM activity is below this share is flagged "
        "(and left out of `results compare` unless `--include-flagged`).",
    )
    resolution_seconds: Annotated[int, Field(ge=1, le=3600)] = Field(
        default=DEFAULT_RESOLUTION_SECONDS,
        description="The step of the queries, in seconds (coarser for long runs: at most "
        "361 points per series are read).",
    )

    @model_validator(mode="after")
    def _labels_differ(self) -> Telemetry:
        names = self.labels.model_dump(by_alias=True)
        seen: dict[str, str] = {}
        for key, value in names.items():
            if value in seen:
                raise constraint(
                    f"labels.{key}", value, f"a label name of its own (labels.{seen[value]})"
                )
            seen[value] = key
        return self
