"""A data stack: data that several cluster stacks read, owned once.

``stacks/Pulumi.imagenet.yaml`` declares ``trainstack:dataStore`` and nothing else: the
NAS file systems and their mount targets, in the clusters' VPC, with the zone pinned.
Cluster stacks mount them through a ``stack-reference`` dataset source, so the
accelerated and the baseline cluster read the very same bytes, and destroying or
re-creating a cluster never touches the data.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from trainstack.config.clusters.alicloud import RegionId, VpcId, VSwitchId
from trainstack.config.datasets import AbsolutePath
from trainstack.config.nas import NasSpec, Protection
from trainstack.config.populate import Populate
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import DnsLabel


class StoredFileSystem(NasSpec):
    """One NAS file system of the data stack and its mount target."""

    name: DnsLabel = Field(
        description="Name cluster stacks use (`source: {type: stack-reference, dataset: ...}`)."
    )
    vswitch_id: VSwitchId = Field(
        description="vSwitch of the mount target: one in the zone of the file system, in the "
        "VPC of every cluster that mounts it."
    )
    path: AbsolutePath = Field(
        default="/", description="Directory of the file system the data is in (exported)."
    )
    protection: Protection = Field(
        default_factory=Protection, description="Protection of the file system and mount target."
    )
    populate: Populate | None = Field(
        default=None,
        description="How the file system is filled, once, by a Job on the cluster stack it "
        "names (see docs/data.md); unset: filled by hand.",
    )


class DataStore(StrictModel):
    """NAS file systems owned by this stack, for the clusters of one VPC."""

    provider: Literal["alicloud"] = Field(description="`alicloud`: Alibaba Cloud NAS.")
    region: RegionId = Field(description="Region of the file systems, e.g. `cn-beijing`.")
    vpc_id: VpcId = Field(
        description="VPC of the mount targets; every cluster that mounts the data must be in "
        "it (checked when a cluster stack is planned)."
    )
    file_systems: list[StoredFileSystem] = Field(
        min_length=1, description="The file systems, each with a mount target."
    )

    @model_validator(mode="after")
    def _unique_names(self) -> DataStore:
        seen: dict[str, int] = {}
        for index, file_system in enumerate(self.file_systems):
            if file_system.name in seen:
                raise constraint(
                    f"fileSystems[{index}].name",
                    file_system.name,
                    f"a name no other file system uses (fileSystems[{seen[file_system.name]}] "
                    "has it)",
                )
            seen[file_system.name] = index
        return self

    def file_system(self, name: str) -> tuple[int, StoredFileSystem] | None:
        """The index and file system called ``name``, if any."""
        for index, file_system in enumerate(self.file_systems):
            if file_system.name == name:
                return index, file_system
        return None


class DataStackConfig(StrictModel):
    """Everything a data stack declares under `trainstack:` (nothing else is allowed)."""

    data_store: DataStore = Field(description="The file systems this stack owns.")
