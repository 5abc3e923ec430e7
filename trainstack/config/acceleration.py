"""The optional acceleration layer (Alibaba AIACC), installed on the accelerated cluster only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from trainstack.base_model import StrictModel, constraint
from trainstack.config.charts import ChartRef
from trainstack.config.names import DnsLabel, NonEmpty


class AckAddon(StrictModel):
    """An ACK cluster add-on, installed and upgraded by ACK itself."""

    kind: Literal["ack-addon"] = Field(description="`ack-addon`: an ACK cluster component.")
    name: NonEmpty = Field(description="Add-on name as listed by ACK (Operations > Add-ons).")
    version: str | None = Field(
        default=None, description="Add-on version to pin; unset takes ACK's current default."
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
    """AIACC on/off and the cluster component that provides it."""

    enabled: bool = Field(default=False, description="Install the acceleration component.")
    component: AccelerationComponent | None = Field(
        default=None, description="What to install when enabled."
    )
    experiment_overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="Job values merged over every experiment when enabled (e.g. AIACC "
        "environment variables): the only experiment differences the fairness report "
        "accepts between an accelerated and a baseline stack.",
    )

    @model_validator(mode="after")
    def _component_when_enabled(self) -> Acceleration:
        if self.enabled and self.component is None:
            raise constraint(
                "component", None, "an `ack-addon` or `helm` component when enabled is true"
            )
        return self
