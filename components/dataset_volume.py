"""DatasetVolume: a shared dataset as a static PersistentVolume and the claim bound to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_alicloud as alicloud
import pulumi_kubernetes as k8s

from trainstack.config.cluster import AlicloudCluster, Cluster
from trainstack.config.datasets import NAS_CSI_DRIVER, AlicloudNasSource, Dataset, NasFileSystem


@dataclass(frozen=True)
class DatasetVolumeArgs:
    """The dataset to expose, its cluster, and the provider for the PV and PVC.

    ``depends_on``: what must exist before the claims (e.g. the teams' namespaces).
    """

    dataset: Dataset
    cluster: Cluster
    kubernetes: k8s.Provider
    depends_on: Sequence[pulumi.Resource] = ()


class DatasetVolume(pulumi.ComponentResource):
    """A static PV (NAS CSI or NFS) and a PVC bound to exactly that PV, per namespace.

    Static, not dynamically provisioned: the data already exists (or the NAS file system
    is created here, empty, for the data to be copied in) and must survive the claim, so
    the PV is ``Retain`` and no StorageClass is involved. The PV reserves itself for the
    claim (``claimRef``) and the claim names the PV (``volumeName``), so no other claim
    can take it. A dataset shared with other namespaces gets one such pair per namespace,
    all on the same data: a PV binds exactly one claim.
    """

    claim_name: pulumi.Output[str]
    server: pulumi.Output[str]

    def __init__(
        self, name: str, args: DatasetVolumeArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:storage:DatasetVolume", name, None, opts)
        dataset = args.dataset
        child = pulumi.ResourceOptions(parent=self)
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        server = self._server(name, dataset, args.cluster, child)
        claims = []
        for namespace, volume_name in dataset.claims:
            # The dataset's own pair keeps the names it always had (no replacement).
            role = "" if namespace == dataset.namespace else f"-{namespace}"
            claims.append(
                _claim(f"{name}{role}", dataset, namespace, volume_name, server, in_cluster, args)
            )
        self.claim_name = claims[0].metadata.apply(lambda meta: meta.name or dataset.name)
        self.server = pulumi.Output.from_input(server)
        self.register_outputs({"claim_name": self.claim_name, "server": self.server})

    @staticmethod
    def _server(
        name: str, dataset: Dataset, cluster: Cluster, opts: pulumi.ResourceOptions
    ) -> pulumi.Input[str]:
        """The NFS server: an existing one, or the mount target of a new NAS file system."""
        source = dataset.source
        if not isinstance(source, AlicloudNasSource):
            return source.server
        if source.create is None:
            assert source.mount_target_domain is not None  # the model requires one of the two
            return source.mount_target_domain
        assert isinstance(cluster, AlicloudCluster)  # the stack model refuses it otherwise
        return _create_nas(name, dataset, source.create, cluster, opts)


def _claim(
    name: str,
    dataset: Dataset,
    namespace: str,
    volume_name: str,
    server: pulumi.Input[str],
    in_cluster: pulumi.ResourceOptions,
    args: DatasetVolumeArgs,
) -> k8s.core.v1.PersistentVolumeClaim:
    """The PV ``volume_name`` and the claim ``dataset.name`` in ``namespace`` bound to it."""
    csi, nfs = _volume_source(dataset, volume_name, server)
    volume = k8s.core.v1.PersistentVolume(
        f"{name}-pv",
        metadata=k8s.meta.v1.ObjectMetaArgs(name=volume_name, labels=_labels(dataset)),
        spec=k8s.core.v1.PersistentVolumeSpecArgs(
            capacity={"storage": dataset.capacity},
            access_modes=list(dataset.access_modes),
            persistent_volume_reclaim_policy="Retain",
            storage_class_name="",
            mount_options=list(dataset.mount_options),
            claim_ref=k8s.core.v1.ObjectReferenceArgs(namespace=namespace, name=dataset.name),
            csi=csi,
            nfs=nfs,
        ),
        opts=in_cluster,
    )
    return k8s.core.v1.PersistentVolumeClaim(
        f"{name}-pvc",
        metadata=k8s.meta.v1.ObjectMetaArgs(
            name=dataset.name, namespace=namespace, labels=_labels(dataset)
        ),
        spec=k8s.core.v1.PersistentVolumeClaimSpecArgs(
            access_modes=list(dataset.access_modes),
            storage_class_name="",
            volume_name=volume_name,
            resources=k8s.core.v1.VolumeResourceRequirementsArgs(
                requests={"storage": dataset.capacity}
            ),
        ),
        opts=pulumi.ResourceOptions.merge(
            in_cluster, pulumi.ResourceOptions(depends_on=[volume, *args.depends_on])
        ),
    )


def _create_nas(
    name: str,
    dataset: Dataset,
    spec: NasFileSystem,
    cluster: AlicloudCluster,
    opts: pulumi.ResourceOptions,
) -> pulumi.Output[str]:
    file_system = alicloud.nas.FileSystem(
        f"{name}-nas",
        protocol_type="NFS",
        storage_type=spec.storage_type,
        file_system_type="standard",
        zone_id=spec.zone_id,
        description=spec.description or dataset.name,
        opts=opts,
    )
    mount_target = alicloud.nas.MountTarget(
        f"{name}-mount-target",
        file_system_id=file_system.id,
        network_type="Vpc",
        vpc_id=cluster.vpc_id,
        vswitch_id=spec.vswitch_id or cluster.vswitch_ids[0],
        # The VPC's default permission group: read-write for the whole VPC, as the ACK guide.
        access_group_name="DEFAULT_VPC_GROUP_NAME",
        opts=opts,
    )
    return mount_target.mount_target_domain


def _volume_source(
    dataset: Dataset, volume_name: str, server: pulumi.Input[str]
) -> tuple[
    k8s.core.v1.CSIPersistentVolumeSourceArgs | None, k8s.core.v1.NFSVolumeSourceArgs | None
]:
    """The PV's volume source: the NAS CSI plug-in, or the in-tree NFS client."""
    if isinstance(dataset.source, AlicloudNasSource):
        csi = k8s.core.v1.CSIPersistentVolumeSourceArgs(
            driver=NAS_CSI_DRIVER,
            # The NAS plug-in requires the handle to equal the PV name.
            volume_handle=volume_name,
            volume_attributes={"server": server, "path": dataset.export_path},
        )
        return csi, None
    return None, k8s.core.v1.NFSVolumeSourceArgs(server=server, path=dataset.export_path)


def _labels(dataset: Dataset) -> dict[str, str]:
    return {"app.kubernetes.io/managed-by": "trainstack", "trainstack.io/dataset": dataset.name}
