"""The acceleration layer (Alibaba AIACC) of the accelerated stack.

AIACC-Training is delivered in the training environment, not as a cluster service:
Alibaba Cloud documents it as a pip/conda package or a Docker image with AIACC-Training
installed ("Install AIACC-Training"; launched with ``perseusrun`` or through its Horovod
and PyTorch-DDP compatible APIs), tuned by ``PERSEUS_*`` environment variables
("Startup commands and environment variables"). No ACK add-on for it is documented.
So an accelerated stack is, first, ``experimentOverrides`` applied to its jobs; a cluster
component is installed only when the user names one exactly (an ACK add-on with its
version, or a Helm chart), and the experiments then wait for it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from trainstack.config.charts import ChartRef
from trainstack.core.base_model import StrictModel
from trainstack.core.names import DnsLabel, NonEmpty

AddonVersion = Annotated[
    str, StringConstraints(pattern=r"^v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+_-]+)?$", max_length=64)
]
"""An exact add-on version as ACK lists it (``DescribeClusterAddonsVersion``), no ranges."""


class AckAddon(StrictModel):
    """An ACK cluster add-on, installed and upgraded by ACK itself."""

    kind: Literal["ack-addon"] = Field(description="`ack-addon`: an ACK cluster component.")
    name: NonEmpty = Field(
        description="Add-on name exactly as ACK lists it (console: Operations > Add-ons)."
    )
    version: AddonVersion = Field(
        description="Exact add-on version (ACK's InstallClusterAddons takes one; "
        "DescribeClusterAddonsVersion lists them)."
    )
    config: dict[str, Any] = Field(
        default_factory=dict, description="Add-on configuration (its JSON schema is per add-on)."
    )


class HelmComponent(StrictModel):
    """A Helm chart, for clusters that are not ACK."""

    kind: Literal["helm"] = Field(description="`helm`: a Helm chart.")
    chart: ChartRef = Field(description="The chart to install.")
    namespace: DnsLabel = Field(description="Namespace of the release (created if missing).")
    values: dict[str, Any] = Field(default_factory=dict, description="Values for the chart.")


AccelerationComponent = Annotated[AckAddon | HelmComponent, Field(discriminator="kind")]


class Acceleration(StrictModel):
    """AIACC on/off: what changes in the jobs, and the cluster component, if any."""

    enabled: bool = Field(
        default=False,
        description="This is the accelerated stack: apply `experimentOverrides` (and install "
        "`component` when set).",
    )
    component: AccelerationComponent | None = Field(
        default=None,
        description="A cluster component to install, named exactly; unset: nothing is "
        "installed (AIACC-Training ships in the training image).",
    )
    experiment_overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="Job values merged over every experiment when enabled (e.g. AIACC's "
        "PERSEUS_* environment variables): the only experiment differences the fairness "
        "report accepts between an accelerated and a baseline stack.",
    )
