"""NasFileSystem: a NAS file system and its mount target, protected as data.

Data outlives every deployment, so both resources are protected by default (opt out per
file system or dataset with ``protection: {enabled: false}``, for throw-away data only):

- the **file system** gets ``protect`` *and* ``retainOnDelete``. ``protect`` makes every
  delete or replacement fail visibly (``pulumi up`` after a rename, a change of
  ``zoneId``/``storageType``, ``pulumi destroy``) until someone runs
  ``pulumi state unprotect``; ``retainOnDelete`` then still keeps the file system in the
  cloud when it leaves the stack, so deleting ImageNet is always a deliberate act in the
  NAS console, never a side effect of a stack change.
- the **mount target** gets ``protect`` only: replacing it changes the domain every
  cluster's PVs mount (running jobs lose their data mount), so that too must be
  deliberate; but a mount target holds no data, and one left behind after a deliberate
  removal would keep an open path into the VPC, so it is not retained.
"""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud

from trainstack.config.clusters.alicloud_nas import NasSpec


@dataclass(frozen=True)
class NasFileSystemArgs:
    """The file system, where its mount target goes, and whether it is protected."""

    spec: NasSpec
    vpc_id: str
    vswitch_id: str
    description: str
    protected: bool = True


class NasFileSystem(pulumi.ComponentResource):
    """A NAS file system (zone pinned) with one mount target in a VPC (data stacks)."""

    file_system_id: pulumi.Output[str]
    mount_target_domain: pulumi.Output[str]

    def __init__(
        self, name: str, args: NasFileSystemArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:storage:NasFileSystem", name, None, opts)
        file_system, mount_target = nas_resources(name, args, pulumi.ResourceOptions(parent=self))
        self.file_system_id = file_system.id
        self.mount_target_domain = mount_target.mount_target_domain
        self.register_outputs(
            {
                "file_system_id": self.file_system_id,
                "mount_target_domain": self.mount_target_domain,
            }
        )


def nas_resources(
    name: str, args: NasFileSystemArgs, opts: pulumi.ResourceOptions
) -> tuple[alicloud.nas.FileSystem, alicloud.nas.MountTarget]:
    """``<name>-nas`` and ``<name>-mount-target``, with the protection of the module doc."""
    spec = args.spec
    file_system = alicloud.nas.FileSystem(
        f"{name}-nas",
        protocol_type=spec.protocol_type,
        storage_type=spec.storage_type,
        file_system_type=spec.file_system_type,
        zone_id=spec.zone_id,
        capacity=spec.capacity_gib,
        encrypt_type=spec.encrypt_type,
        kms_key_id=spec.kms_key_id,
        description=spec.description or args.description,
        opts=pulumi.ResourceOptions.merge(
            opts,
            pulumi.ResourceOptions(protect=args.protected, retain_on_delete=args.protected),
        ),
    )
    mount_target = alicloud.nas.MountTarget(
        f"{name}-mount-target",
        file_system_id=file_system.id,
        network_type="Vpc",
        vpc_id=args.vpc_id,
        vswitch_id=args.vswitch_id,
        # The VPC's default permission group: read-write for the whole VPC, as the ACK guide.
        access_group_name="DEFAULT_VPC_GROUP_NAME",
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(protect=args.protected)),
    )
    return file_system, mount_target
