"""A reference to a remote Helm chart, pinned to one version."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import (
    RELEASE_NAME_MAX,
    ChartName,
    ChartRepo,
    DnsLabel,
    PinnedVersion,
)


class ChartRef(StrictModel):
    """Where a chart comes from; the version is exact so that every run installs the same."""

    repo: ChartRepo = Field(
        description="Chart repository: an `https://` index or an `oci://` registry."
    )
    name: ChartName = Field(
        description="Chart name in the repository (lowercase letters, digits and `-`)."
    )
    version: PinnedVersion = Field(description="Exact chart version, e.g. `0.15.3` (no ranges).")


class HelmRelease(StrictModel):
    """A Helm release of a remote chart."""

    enabled: bool = Field(default=True, description="Install this release.")
    chart: ChartRef = Field(description="The chart to install.")
    namespace: DnsLabel = Field(description="Namespace of the release (created if missing).")
    release_name: DnsLabel | None = Field(
        default=None, description="Helm release name; defaults to the chart name."
    )
    values: dict[str, Any] = Field(
        default_factory=dict, description="Values passed to the chart (like `helm -f`)."
    )

    @model_validator(mode="after")
    def _release_name_fits(self) -> HelmRelease:
        if self.release_name is None and len(self.chart.name) > RELEASE_NAME_MAX:
            raise constraint(
                "releaseName",
                None,
                f"a release name of at most {RELEASE_NAME_MAX} characters: the chart name "
                f"{self.chart.name!r}, the default, is longer",
            )
        return self

    @property
    def name(self) -> str:
        """The Helm release name."""
        return self.release_name or self.chart.name
