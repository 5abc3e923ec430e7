"""DatasetVolume: a shared dataset as a static PersistentVolume and the claim bound to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from components.clusters.registry import create_file_system
from components.populate_job import PopulateJob, PopulateJobArgs
from trainstack.config.clusters.registry import Cluster
from trainstack.config.data_sources import ResolvedDataset
from trainstack.config.datasets import Dataset
from trainstack.config.storage import Mount
from trainstack.core.names import MANAGED_BY


@dataclass(frozen=True)
class DatasetVolumeArgs:
    """The dataset to expose, what it resolves to, its cluster, the provider for PV and PVC.

    ``reference``: the StackReference of the data stack a ``stack-reference`` dataset
    mounts (its mount target domain comes from there). ``depends_on``: what must exist
    before the claims (e.g. the teams' namespaces).
    """

    dataset: Dataset
    resolved: ResolvedDataset
    cluster: Cluster
    kubernetes: k8s.Provider
    depends_on: Sequence[pulumi.Resource] = ()
    reference: pulumi.StackReference | None = None


class DatasetVolume(pulumi.ComponentResource):
    """A static PV (a CSI driver's or NFS) and a PVC bound to exactly that PV, per namespace.

    Static, not dynamically provisioned: the data already exists (in a data stack's NAS,
    or a NAS file system created here, empty, for the data to be copied in) and must
    survive the claim, so the PV is ``Retain`` and no StorageClass is involved. The PV
    reserves itself for the claim (``claimRef``) and the claim names the PV
    (``volumeName``), so no other claim can take it. A dataset shared with other
    namespaces gets one such pair per namespace, all on the same data: a PV binds
    exactly one claim.

    Protection (``datasets[].protection``, on by default): each PV gets Pulumi's
    ``protect``. ``Retain`` keeps the data when a PV is deleted, but deleting or
    replacing the PV of a bound claim (its volume source is immutable, so any change of
    server or path replaces it) leaves running jobs with a lost volume: that must be a
    deliberate ``pulumi state unprotect``, not a side effect. It is not
    ``retainOnDelete``: a PV left behind when its dataset leaves the stack would keep
    pointing at the data with no owner. A file system created here is its kind's (ACK's
    NAS, protected as in :mod:`components.clusters.nas_file_system`).

    A data stack's file system with ``populate``: the first dataset mounting all of it
    gets a :class:`PopulateJob` (the Job that fills it, on the stack the data stack names;
    the Job that waits for it elsewhere), so that experiments, which depend on the
    datasets, start on filled data only.
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
        server = self._server(name, args, child)
        claims = []
        for namespace, volume_name in dataset.claims:
            # The dataset's own pair keeps the names it always had (no replacement).
            role = "" if namespace == dataset.namespace else f"-{namespace}"
            claims.append(
                _claim(f"{name}{role}", dataset, namespace, volume_name, server, in_cluster, args)
            )
        spec = args.resolved.populate
        if spec is not None:  # filled once by a Job (here or on the stack the data names)
            PopulateJob(
                f"{name}-populate",
                PopulateJobArgs(
                    spec,
                    dataset.name,
                    dataset.name,
                    dataset.namespace,
                    args.resolved.populates,
                    args.kubernetes,
                    (claims[0],),
                ),
                pulumi.ResourceOptions(parent=self),
            )
        self.claim_name = claims[0].metadata.apply(lambda meta: meta.name or dataset.name)
        self.server = pulumi.Output.from_input(server)
        self.register_outputs({"claim_name": self.claim_name, "server": self.server})

    @staticmethod
    def _server(
        name: str, args: DatasetVolumeArgs, opts: pulumi.ResourceOptions
    ) -> pulumi.Input[str]:
        """The server: the one the source names, a data stack's, or a new file system's."""
        dataset, source = args.dataset, args.dataset.source
        given = source.given_server()
        if given is not None:
            return given
        referenced = source.referenced()
        if referenced is None:
            return create_file_system(name, dataset, args.cluster, opts)
        store = args.cluster.kind.storage.data_store
        # The program passes the data stack's reference; the stack model refuses a
        # stack-reference source on a kind without data stacks.
        assert args.reference is not None and store is not None
        domain = args.reference.get_output(f"{referenced.file_system}.{store.server_output}")
        return domain.apply(str)


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
    mount = args.cluster.mount(dataset.source)
    assert mount is not None  # the stack model refuses a source its cluster cannot mount
    path = str(args.resolved.facts["path"].value)
    csi, nfs = _volume_source(mount, volume_name, server, path)
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
        opts=pulumi.ResourceOptions.merge(
            in_cluster, pulumi.ResourceOptions(protect=dataset.protection.enabled)
        ),
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


def _volume_source(
    mount: Mount, volume_name: str, server: pulumi.Input[str], path: str
) -> tuple[
    k8s.core.v1.CSIPersistentVolumeSourceArgs | None, k8s.core.v1.NFSVolumeSourceArgs | None
]:
    """The PV's volume source: its kind's CSI driver, or the in-tree NFS client."""
    if mount.csi_driver is not None:
        csi = k8s.core.v1.CSIPersistentVolumeSourceArgs(
            driver=mount.csi_driver,
            # The handle is the PV's name, as ACK's NAS plug-in requires (see Mount).
            volume_handle=volume_name,
            volume_attributes={"server": server, "path": path},
        )
        return csi, None
    return None, k8s.core.v1.NFSVolumeSourceArgs(server=server, path=path)


def _labels(dataset: Dataset) -> dict[str, str]:
    return {**MANAGED_BY, "trainstack.io/dataset": dataset.name}
