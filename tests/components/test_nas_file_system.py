"""NasFileSystem of the data stack: zone pinned, mount target in the clusters' VPC, protected."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import example_config, only
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

FILE_SYSTEM = "alicloud:nas/fileSystem:FileSystem"
MOUNT_TARGET = "alicloud:nas/mountTarget:MountTarget"


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
