"""ACK's storage: Alibaba Cloud NAS, as a dataset's source and as a data stack's store.

Both mount with the ACK NAS CSI plug-in; a data stack's file systems serve the VPC of
their mount targets, so a cluster mounts them only from that VPC and region. The
program's side is ``components/clusters/alicloud.py`` (``file_system``, ``data_store``).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from trainstack.config.clusters.ack_create import AckCreate
from trainstack.config.clusters.alicloud_ids import RegionId, VpcId, VSwitchId
from trainstack.config.clusters.alicloud_nas import NasSpec
from trainstack.config.populate import Populate
from trainstack.config.storage import (
    AbsolutePath,
    DataStoreModel,
    Fact,
    Mount,
    Need,
    Protection,
    SourceModel,
    Storage,
)
from trainstack.core.base_model import constraint
from trainstack.core.names import DnsLabel

# The ACK CSI plug-in that mounts NAS volumes.
NAS_CSI_DRIVER = "nasplugin.csi.alibabacloud.com"
NAS_MOUNT = Mount(csi_driver=NAS_CSI_DRIVER)


class NasFileSystem(NasSpec):
    """A NAS file system (and a mount target in the cluster's VPC) created by this stack.

    Only for data one cluster uses: data that two stacks compare on belongs to a data
    stack (``trainstack:dataStore``) read through a ``stack-reference`` source.
    """

    vswitch_id: VSwitchId | None = Field(
        default=None,
        description="vSwitch of the mount target; unset uses the cluster's first vSwitch.",
    )


class AlicloudNasSource(SourceModel):
    """Alibaba Cloud NAS, mounted with the ACK NAS CSI plug-in."""

    type: Literal["alicloud-nas"] = Field(description="`alicloud-nas`: a NAS file system.")
    create: NasFileSystem | None = Field(
        default=None, description="Create a file system and mount target for this dataset."
    )
    mount_target_domain: str | None = Field(
        default=None,
        description="Use an existing mount target instead, e.g. "
        "`0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com`.",
    )
    path: AbsolutePath = Field(default="/", description="Directory exported by the file system.")

    mount: ClassVar[Mount | None] = NAS_MOUNT

    @model_validator(mode="after")
    def _one_source(self) -> AlicloudNasSource:
        if (self.create is None) == (self.mount_target_domain is None):
            raise constraint(
                "mountTargetDomain",
                self.mount_target_domain,
                "exactly one of `create` (a new NAS file system) or `mountTargetDomain` "
                "(an existing mount target)",
            )
        return self

    def given_server(self) -> str | None:
        """An existing mount target's domain; a created one's is the program's."""
        return self.mount_target_domain

    def needs(self) -> Need | None:
        """Creating a file system needs a kind that creates NAS in its network."""
        if self.create is None:
            return None
        return Need(
            "nas",
            "create",
            "a new NAS file system",
            "`mountTargetDomain` of an existing NAS, or an `nfs` source, on {kind}",
        )

    def facts(self, stack: str, key: str) -> dict[str, Fact]:
        """The file system: a mount target's domain, or the one this stack creates."""
        create = self.create
        if create is None:
            domain = f"NAS mount target {self.mount_target_domain}"
            return {"fileSystem": Fact(domain, f"{key}.mountTargetDomain")}
        # A file system this stack creates is its own copy: another stack's never equals it.
        return {
            "fileSystem": Fact(f"a NAS file system created by stack {stack}", f"{key}.create"),
            "zoneId": Fact(create.zone_id, f"{key}.create.zoneId"),
            "storageType": Fact(create.storage_type, f"{key}.create.storageType"),
            "protocolType": Fact(create.protocol_type, f"{key}.create.protocolType"),
        }


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

    def facts(self, where: str, in_file: str) -> dict[str, Fact]:
        """Zone, storage type and protocol: what two clusters reading it agree on."""
        return {
            "zoneId": Fact(self.zone_id, f"{where}.zoneId{in_file}"),
            "storageType": Fact(self.storage_type, f"{where}.storageType{in_file}"),
            "protocolType": Fact(self.protocol_type, f"{where}.protocolType{in_file}"),
        }

    def summary(self) -> str:
        """``standard NAS, Performance, NFS, zone cn-beijing-h, mount target in vsw-...``."""
        return (
            f"{self.file_system_type} NAS, {self.storage_type}, {self.protocol_type}, zone "
            f"{self.zone_id}, mount target in {self.vswitch_id}"
        )


class AlicloudDataStore(DataStoreModel):
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

    mount: ClassVar[Mount] = NAS_MOUNT
    server_output: ClassVar[str] = "mountTargetDomain"
    network_reason: ClassVar[str] = "a NAS mount target serves its own VPC only"

    def network(self) -> dict[str, str]:
        """The VPC and region of the mount targets."""
        return {"vpcId": self.vpc_id, "region": self.region}


def check_nas_addons(create: AckCreate | None, mount: Mount, dataset: str) -> None:
    """A created cluster must be created with the NAS CSI add-ons its PVs mount through
    (an existing cluster's are its own)."""
    missing = None if create is None or mount.csi_driver is None else create.missing_nas_addons()
    if missing:
        raise constraint(
            "cluster.create.addons",
            f"no {missing}",
            "the NAS CSI add-ons (`csi-plugin` and `managed-csiprovisioner` or "
            f"`csi-provisioner`): {dataset} mounts NAS through them",
        )


STORAGE = Storage(source=AlicloudNasSource, data_store=AlicloudDataStore)
"""ACK's storage, on its kind (``alicloud.KIND.storage``)."""
