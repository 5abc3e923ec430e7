"""NasFileSystem: from minimal arguments, a file system and its mount target; in the data stack,
zone pinned, mount target in the clusters' VPC, protected."""

from __future__ import annotations

from components.clusters.nas_file_system import NasFileSystem, NasFileSystemArgs
from tests.components.mock_engine import Registered, build, value
from tests.conftest import StackWriter
from tests.stack_helpers import example_config, only
from trainstack.config.clusters.alicloud_nas import NasSpec
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

FILE_SYSTEM = "alicloud:nas/fileSystem:FileSystem"
MOUNT_TARGET = "alicloud:nas/mountTarget:MountTarget"
SPEC = NasSpec.model_validate({"zoneId": "cn-beijing-h"})


def _build(protected: bool = True) -> tuple[NasFileSystem, Registered]:
    args = NasFileSystemArgs(SPEC, "vpc-1", "vsw-1", "imagenet-data", protected)
    return build(lambda: NasFileSystem("imagenet-data", args))


def test_the_file_system_is_pinned_to_its_zone_and_described() -> None:
    _, registered = _build()
    file_system = registered.one(FILE_SYSTEM)
    assert file_system.name == "imagenet-data-nas"
    assert file_system.inputs == {
        "protocolType": "NFS",
        "storageType": "Performance",
        "fileSystemType": "standard",
        "zoneId": "cn-beijing-h",
        "encryptType": 1,
        "description": "imagenet-data",
    }


def test_the_mount_target_is_in_the_vpc_and_mounts_the_file_system() -> None:
    made, registered = _build()
    mount_target = registered.one(MOUNT_TARGET)
    assert mount_target.name == "imagenet-data-mount-target"
    assert mount_target.inputs == {
        "fileSystemId": "imagenet-data-nas-id",
        "networkType": "Vpc",
        "vpcId": "vpc-1",
        "vswitchId": "vsw-1",
        "accessGroupName": "DEFAULT_VPC_GROUP_NAME",
    }
    assert value(made.file_system_id) == "imagenet-data-nas-id"
    component = registered.one("trainstack:storage:NasFileSystem")
    assert {r.name for r in registered.children(component)} == {
        "imagenet-data-nas",
        "imagenet-data-mount-target",
    }


def test_the_data_is_protected_and_kept_the_mount_target_only_protected() -> None:
    _, registered = _build()
    file_system, mount_target = registered.one(FILE_SYSTEM), registered.one(MOUNT_TARGET)
    assert (file_system.protect, file_system.retain_on_delete) == (True, True)
    assert (mount_target.protect, mount_target.retain_on_delete) == (True, False)


def test_throw_away_data_is_neither_protected_nor_kept() -> None:
    _, registered = _build(protected=False)
    for resource in (registered.one(FILE_SYSTEM), registered.one(MOUNT_TARGET)):
        assert (resource.protect, resource.retain_on_delete) == (False, False)


def test_imagenet_is_one_protected_file_system_in_the_clusters_zone(
    example_plans: dict[str, Plan],
) -> None:
    plan = example_plans["imagenet"]
    file_system = only(plan, FILE_SYSTEM)
    assert file_system.name == "imagenet-data-nas"
    assert {k: file_system.inputs[k] for k in ("zoneId", "storageType", "protocolType")} == {
        "zoneId": "<zone of the GPU nodes' vSwitch, e.g. cn-beijing-h>",
        "storageType": "Performance",
        "protocolType": "NFS",
    }
    assert file_system.inputs["fileSystemType"] == "standard"
    # protect: delete/replace fails until unprotected; retainOnDelete: kept in the cloud.
    assert (file_system.options["protect"], file_system.options["retainOnDelete"]) == (True, True)
    mount_target = only(plan, MOUNT_TARGET)
    assert (mount_target.inputs["vpcId"], mount_target.inputs["vswitchId"]) == (
        "<VPC ID of both clusters (the ImageNet NAS is in it)>",
        "<vSwitch ID of the GPU nodes>",
    )
    assert (mount_target.options["protect"], mount_target.options["retainOnDelete"]) == (
        True,
        False,
    )
    assert (
        plan.outputs["imagenet-data.zoneId"]
        == "<zone of the GPU nodes' vSwitch, e.g. cn-beijing-h>"
    )


def test_the_data_stack_creates_nothing_in_a_cluster(example_plans: dict[str, Plan]) -> None:
    types = {r.type for r in example_plans["imagenet"].resources}
    assert types == {
        "pulumi:pulumi:Stack",
        "trainstack:storage:NasFileSystem",
        FILE_SYSTEM,
        MOUNT_TARGET,
    }


def test_protection_off_for_throwaway_data(write_stack: StackWriter) -> None:
    config = example_config("imagenet")
    config["trainstack:dataStore"]["fileSystems"][0]["protection"] = {"enabled": False}
    project = write_stack(config)
    plan = plan_stack(project, "test")
    for type_token in (FILE_SYSTEM, MOUNT_TARGET):
        options = only(plan, type_token).options
        assert (options["protect"], options["retainOnDelete"]) == (False, False)
