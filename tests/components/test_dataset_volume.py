"""DatasetVolume: from minimal arguments, a static PV and the claim bound to it; in the example
program, the PV's source and the PVC bound to exactly that PV."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from components.dataset_volume import DatasetVolume, DatasetVolumeArgs
from tests.components.minimal import ACK_CLUSTER, EXISTING_CLUSTER
from tests.components.mock_engine import Registered, build, provider, value
from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config, only
from tests.storage_helpers import SHARE, SHARE_DRIVER, share_dataset, use_share_kind
from trainstack.config.data_sources import Fact, ResolvedDataset
from trainstack.config.datasets import Dataset
from trainstack.plan.masking import COMPUTED
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

PV = "kubernetes:core/v1:PersistentVolume"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
NFS = {"type": "nfs", "server": "10.0.0.5", "path": "/exports/imagenet"}
# The example ACK stacks also have a results dataset (training-results).
IMAGENET_PV, IMAGENET_PVC = "imagenet-data-pv", "imagenet-data-pvc"


def _build(
    dataset: dict[str, Any],
    path: str = "/exports/imagenet",
    reference: str | None = None,
    stack_outputs: dict[str, dict[str, Any]] | None = None,
) -> tuple[DatasetVolume, Registered]:
    spec = Dataset.model_validate({"name": "imagenet", "capacity": "10Ti", **dataset})
    resolved = ResolvedDataset(spec.name, {"path": Fact(path, "trainstack:datasets[0]")})
    # A data stack's file system is mounted as its kind's store says: ACK's.
    cluster = ACK_CLUSTER if reference else EXISTING_CLUSTER

    def make() -> DatasetVolume:
        stack = pulumi.StackReference("data", stack_name=reference) if reference else None
        args = DatasetVolumeArgs(spec, resolved, cluster, provider(), reference=stack)
        return DatasetVolume("imagenet", args)

    return build(make, stack_outputs=stack_outputs)


def test_an_nfs_export_is_a_retained_pv_reserved_for_its_claim() -> None:
    made, registered = _build({"source": NFS, "mountOptions": ["vers=3"]})
    volume = registered.one(PV)
    assert volume.name == "imagenet-pv"
    assert volume.inputs["spec"] == {
        "capacity": {"storage": "10Ti"},
        "accessModes": ["ReadWriteMany"],
        "persistentVolumeReclaimPolicy": "Retain",
        "storageClassName": "",
        "mountOptions": ["vers=3"],
        "claimRef": {"namespace": "default", "name": "imagenet"},
        "nfs": {"server": "10.0.0.5", "path": "/exports/imagenet"},
    }
    assert volume.protect
    claim = registered.one(PVC)
    assert (claim.name, claim.inputs["metadata"]["namespace"]) == ("imagenet-pvc", "default")
    assert claim.inputs["spec"]["volumeName"] == "imagenet"
    assert volume.urn in claim.depends_on
    assert (value(made.claim_name), value(made.server)) == ("imagenet", "10.0.0.5")


def test_each_namespace_it_is_shared_with_gets_its_own_pair() -> None:
    _, registered = _build({"source": NFS, "namespace": "vision", "sharedWith": ["nlp"]})
    claims = {r.name: r.inputs for r in registered.of_type(PVC)}
    assert sorted(claims) == ["imagenet-nlp-pvc", "imagenet-pvc"]
    assert claims["imagenet-nlp-pvc"]["metadata"]["namespace"] == "nlp"
    assert claims["imagenet-nlp-pvc"]["spec"]["volumeName"] == "imagenet-nlp"
    volumes = {r.name: r.inputs["spec"]["claimRef"] for r in registered.of_type(PV)}
    assert volumes == {
        "imagenet-pv": {"namespace": "vision", "name": "imagenet"},
        "imagenet-nlp-pv": {"namespace": "nlp", "name": "imagenet"},
    }


def test_throw_away_data_leaves_the_pv_unprotected() -> None:
    _, registered = _build({"source": NFS, "protection": {"enabled": False}})
    assert not registered.one(PV).protect


def test_an_existing_nas_mount_target_is_mounted_with_the_csi_plug_in() -> None:
    source = {"type": "alicloud-nas", "mountTargetDomain": "0a1b-abc12.cn-beijing.nas.aliyuncs.com"}
    _, registered = _build({"source": source}, path="/")
    spec = registered.one(PV).inputs["spec"]
    assert "nfs" not in spec
    assert spec["csi"] == {
        "driver": "nasplugin.csi.alibabacloud.com",
        "volumeHandle": "imagenet",
        "volumeAttributes": {"server": "0a1b-abc12.cn-beijing.nas.aliyuncs.com", "path": "/"},
    }


def test_a_data_stacks_file_system_is_mounted_at_the_domain_its_stack_exports() -> None:
    source = {"type": "stack-reference", "stack": "imagenet", "dataset": "imagenet-data"}
    outputs = {"imagenet-data.mountTargetDomain": "9f8e-xyz.cn-beijing.nas.aliyuncs.com"}
    _, registered = _build(
        {"source": source},
        path="/",
        reference="organization/test/imagenet",
        stack_outputs={"organization/test/imagenet": outputs},
    )
    attributes = registered.one(PV).inputs["spec"]["csi"]["volumeAttributes"]
    assert attributes == {"server": "9f8e-xyz.cn-beijing.nas.aliyuncs.com", "path": "/"}


def test_a_nas_created_for_the_dataset_is_in_the_clusters_vpc_and_first_vswitch() -> None:
    spec = Dataset.model_validate(
        {
            "name": "imagenet",
            "capacity": "10Ti",
            "source": {"type": "alicloud-nas", "create": {"zoneId": "cn-beijing-h"}},
        }
    )
    resolved = ResolvedDataset(spec.name, {"path": Fact("/", "trainstack:datasets[0]")})
    _, registered = build(
        lambda: DatasetVolume(
            "imagenet", DatasetVolumeArgs(spec, resolved, ACK_CLUSTER, provider())
        )
    )
    component = registered.one("trainstack:storage:DatasetVolume")
    children = {r.type: r for r in registered.children(component)}
    file_system = children["alicloud:nas/fileSystem:FileSystem"]
    mount_target = children["alicloud:nas/mountTarget:MountTarget"]
    assert (file_system.name, file_system.inputs["description"]) == ("imagenet-nas", "imagenet")
    assert (file_system.protect, file_system.retain_on_delete) == (True, True)
    assert (mount_target.inputs["vpcId"], mount_target.inputs["vswitchId"]) == ("vpc-1", "vsw-1")


def test_a_kinds_own_source_is_mounted_by_the_driver_its_kind_declares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A kind the code does not know (tests/storage_helpers.py): shared code mounts its
    # source as the source declares, at the server it names.
    use_share_kind(monkeypatch)
    spec = share_dataset()
    resolved = ResolvedDataset(spec.name, {"path": Fact("/", "trainstack:datasets[0]")})
    _, registered = build(
        lambda: DatasetVolume(
            "imagenet", DatasetVolumeArgs(spec, resolved, EXISTING_CLUSTER, provider())
        )
    )
    assert registered.one(PV).inputs["spec"]["csi"] == {
        "driver": SHARE_DRIVER,
        "volumeHandle": "imagenet",
        "volumeAttributes": {"server": SHARE, "path": "/"},
    }


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
