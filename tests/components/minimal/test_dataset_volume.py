"""DatasetVolume, built from minimal arguments: a static PV and the claim bound to it."""

from __future__ import annotations

from typing import Any

import pulumi

from components.dataset_volume import DatasetVolume, DatasetVolumeArgs
from tests.components.minimal.clusters import ACK, EXISTING
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.config.data_sources import Fact, ResolvedDataset
from trainstack.config.datasets import Dataset

PV = "kubernetes:core/v1:PersistentVolume"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
NFS = {"type": "nfs", "server": "10.0.0.5", "path": "/exports/imagenet"}


def _build(
    dataset: dict[str, Any],
    path: str = "/exports/imagenet",
    reference: str | None = None,
    stack_outputs: dict[str, dict[str, Any]] | None = None,
) -> tuple[DatasetVolume, Registered]:
    spec = Dataset.model_validate({"name": "imagenet", "capacity": "10Ti", **dataset})
    resolved = ResolvedDataset(spec.name, {"path": Fact(path, "trainstack:datasets[0]")})

    def make() -> DatasetVolume:
        stack = pulumi.StackReference("data", stack_name=reference) if reference else None
        args = DatasetVolumeArgs(spec, resolved, EXISTING, provider(), reference=stack)
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
        lambda: DatasetVolume("imagenet", DatasetVolumeArgs(spec, resolved, ACK, provider()))
    )
    component = registered.one("trainstack:storage:DatasetVolume")
    children = {r.type: r for r in registered.children(component)}
    file_system = children["alicloud:nas/fileSystem:FileSystem"]
    mount_target = children["alicloud:nas/mountTarget:MountTarget"]
    assert (file_system.name, file_system.inputs["description"]) == ("imagenet-nas", "imagenet")
    assert (file_system.protect, file_system.retain_on_delete) == (True, True)
    assert (mount_target.inputs["vpcId"], mount_target.inputs["vswitchId"]) == ("vpc-1", "vsw-1")
