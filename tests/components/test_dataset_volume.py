"""DatasetVolume: the PV's source and the PVC bound to exactly that PV."""

from __future__ import annotations

from typing import Any

from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config, only
from trainstack.plan.masking import COMPUTED
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

PV = "kubernetes:core/v1:PersistentVolume"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
# The example ACK stacks also have a results dataset (training-results).
IMAGENET_PV, IMAGENET_PVC = "imagenet-data-pv", "imagenet-data-pvc"


def _plan_with_source(write_stack: StackWriter, source: dict[str, Any], **extra: Any) -> Plan:
    config = example_config("baseline")
    config["trainstack:datasets"][0]["source"] = source
    config["trainstack:datasets"][0].update(extra)
    return plan_stack(write_stack(config), "test")


def test_imagenet_pv_uses_nas_csi_with_handle_equal_to_name(
    example_plans: dict[str, Plan],
) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        pv = only(plan, PV, IMAGENET_PV).inputs
        assert pv["metadata"]["name"] == "imagenet-data"
        spec = pv["spec"]
        assert spec["csi"]["driver"] == "nasplugin.csi.alibabacloud.com"
        assert spec["csi"]["volumeHandle"] == "imagenet-data"
        # The mount target is created in the same deployment: its domain is known after it.
        assert spec["csi"]["volumeAttributes"] == {"server": COMPUTED, "path": "/"}
        assert spec["accessModes"] == ["ReadWriteMany"]
        assert spec["capacity"] == {"storage": "1Pi"}
        assert spec["persistentVolumeReclaimPolicy"] == "Retain"
        assert spec["mountOptions"] == ["nolock", "tcp", "noresvport", "vers=3"]


def test_pvc_is_bound_to_exactly_its_pv(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        pv, pvc = only(plan, PV, IMAGENET_PV).inputs, only(plan, PVC, IMAGENET_PVC).inputs
        # In the namespace of team vision, whose experiments mount it.
        assert pvc["metadata"] == {
            "name": "imagenet-data",
            "namespace": "vision",
            "labels": pvc["metadata"]["labels"],
        }
        assert pvc["spec"]["volumeName"] == pv["metadata"]["name"]
        assert pvc["spec"]["storageClassName"] == "" == pv["spec"]["storageClassName"]
        assert pvc["spec"]["resources"] == {"requests": {"storage": "1Pi"}}
        assert pvc["spec"]["accessModes"] == pv["spec"]["accessModes"]
        assert pv["spec"]["claimRef"] == {"name": "imagenet-data", "namespace": "vision"}


def test_a_nas_the_stack_creates_is_pinned_and_protected(write_stack: StackWriter) -> None:
    create = {"zoneId": "cn-beijing-h", "storageType": "Capacity"}
    plan = _plan_with_source(write_stack, {"type": "alicloud-nas", "create": create})
    file_system = only(plan, "alicloud:nas/fileSystem:FileSystem")
    assert (file_system.inputs["protocolType"], file_system.inputs["storageType"]) == (
        "NFS",
        "Capacity",
    )
    assert (file_system.inputs["zoneId"], file_system.inputs["encryptType"]) == ("cn-beijing-h", 1)
    assert (file_system.options["protect"], file_system.options["retainOnDelete"]) == (True, True)
    mount_target = only(plan, "alicloud:nas/mountTarget:MountTarget")
    assert mount_target.inputs["fileSystemId"] == COMPUTED
    assert mount_target.inputs["vpcId"] == "<VPC ID of both clusters (the ImageNet NAS is in it)>"
    assert mount_target.inputs["vswitchId"] == "<vSwitch ID of the GPU nodes>"
    assert (mount_target.options["protect"], mount_target.options["retainOnDelete"]) == (
        True,
        False,
    )
    assert only(plan, PV, IMAGENET_PV).options["protect"] is True


def test_protection_can_be_switched_off_per_dataset(write_stack: StackWriter) -> None:
    create = {"zoneId": "cn-beijing-h"}
    plan = _plan_with_source(
        write_stack, {"type": "alicloud-nas", "create": create}, protection={"enabled": False}
    )
    for type_token in ("alicloud:nas/fileSystem:FileSystem", PV):
        options = only(plan, type_token, IMAGENET_PV if type_token == PV else None).options
        assert (options["protect"], options["retainOnDelete"]) == (False, False)
    # Claims are not data: never protected (pvc-protection keeps them while pods use them).
    assert only(plan, PVC, IMAGENET_PVC).options["protect"] is False


def test_example_pvs_are_protected(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ("aiacc", "baseline", "onprem")):
        assert all(pv.options["protect"] for pv in plan.of_type(PV))


def test_existing_mount_target_is_used_as_is(write_stack: StackWriter) -> None:
    domain = "0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com"
    plan = _plan_with_source(
        write_stack, {"type": "alicloud-nas", "mountTargetDomain": domain, "path": "/imagenet"}
    )
    assert plan.of_type("alicloud:nas/fileSystem:FileSystem") == []
    attributes = only(plan, PV, IMAGENET_PV).inputs["spec"]["csi"]["volumeAttributes"]
    assert attributes == {"server": domain, "path": "/imagenet"}


def test_nfs_export_with_sub_path(write_stack: StackWriter) -> None:
    plan = _plan_with_source(
        write_stack,
        {"type": "nfs", "server": "10.10.0.5", "path": "/exports/netapp"},
        subPath="imagenet",
    )
    spec = only(plan, PV, IMAGENET_PV).inputs["spec"]
    assert spec["nfs"] == {"server": "10.10.0.5", "path": "/exports/netapp/imagenet"}
    assert "csi" not in spec
