"""The acceleration layer (Alibaba AIACC) of the accelerated stack.

Two sides, as the seed ran workload 1 (a walkthrough of it: an ACK Pro cluster on
Kubernetes 1.18, AIACC installed from the console, "Application > AI Acceleration", before
the job ran; the same image ran on both clusters):

- The cluster side: a component installed into the accelerated cluster only. No ACK
  documentation found names it or its versions, so a stack names it exactly, and until
  it is known as explicit placeholders (``<...>``) that the plan lists under "set before
  deploying" and that ``pulumi up`` refuses. (Whether ACK installs it as an add-on or as a
  chart of its app catalog is not documented either: ``kind`` says which.)
- The job side: AIACC-Training ships in the training environment (a pip/conda package
  or a Docker image, "Install AIACC-Training",
  https://www.alibabacloud.com/help/en/egs/install-aiacc-training) and is tuned per job by
  ``PERSEUS_*`` environment variables ("Startup commands and environment variables",
  https://www.alibabacloud.com/help/en/egs/startup-commands-and-environment-variables):
  ``experimentOverrides``, each value with the source that documents it in ``sources``
  (the plan marks the others unverified).

The experiments of a stack with a component wait for it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.charts import ChartRef
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, DnsLabel, NonEmpty

AddonVersion = Annotated[
    str,
    StringConstraints(
        pattern=rf"^(v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+_-]+)?|{PLACEHOLDER_PATTERN})$",
        max_length=256,
    ),
]
"""An exact add-on version as ACK lists it (``DescribeClusterAddonsVersion``), no ranges,
or a placeholder ``<...>`` until it is known."""


class AckAddon(StrictModel):
    """An ACK cluster add-on, installed and upgraded by ACK itself."""

    kind: Literal["ack-addon"] = Field(description="`ack-addon`: an ACK cluster component.")
    name: NonEmpty = Field(
        description="Add-on name exactly as ACK lists it (console: Operations > Add-ons), or "
        'a placeholder `<...>` until it is known (listed under "set before deploying").'
    )
    version: AddonVersion = Field(
        description="Exact add-on version (ACK's InstallClusterAddons takes one; "
        "DescribeClusterAddonsVersion lists them), or a placeholder `<...>`."
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
        description='The cluster-side component to install (the seed\'s "AI Acceleration"), '
        "named exactly, or with placeholders `<...>` until its name and version are known; "
        "unset: nothing is installed in the cluster.",
    )
    experiment_overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="Job values merged over every experiment when enabled (e.g. AIACC's "
        "PERSEUS_* environment variables): the only experiment differences the fairness "
        "report accepts between an accelerated and a baseline stack.",
    )
    sources: dict[str, NonEmpty] = Field(
        default_factory=dict,
        description="Where each value of experimentOverrides is documented, by its dotted "
        "key (e.g. `env.PERSEUS_ALLREDUCE_DTYPE`): a documentation page, or a file at a "
        "revision. The plan shows each value with its source, and the others as unverified.",
    )

    @model_validator(mode="after")
    def _sources_name_overrides(self) -> Acceleration:
        leaves = set(override_keys(self.experiment_overrides))
        for key in sorted(self.sources):
            if key not in leaves:
                raise constraint(
                    "sources",
                    key,
                    f"a source for a value of experimentOverrides, by its dotted key: "
                    f"{', '.join(sorted(leaves)) or 'none is set'}",
                )
        return self


def override_keys(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Each value of ``values`` by dotted key (``env.PERSEUS_ALLREDUCE_DTYPE``), in order."""
    found: dict[str, Any] = {}
    for key, value in values.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            found.update(override_keys(value, f"{path}."))
        else:
            found[path] = value
    return found
