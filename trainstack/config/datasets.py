"""Shared datasets on NAS/NFS, exposed to training pods as a static PV + PVC pair."""

from __future__ import annotations

import posixpath
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.clusters.alicloud import VSwitchId
from trainstack.config.nas import NasSpec, Protection
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, DnsLabel, Quantity, Sha256Digest
from trainstack.core.quantity import parse_quantity

AbsolutePath = Annotated[str, StringConstraints(pattern=r"^/[^\s]*$")]
AccessMode = Literal["ReadWriteMany", "ReadOnlyMany", "ReadWriteOnce", "ReadWriteOncePod"]

# The ACK CSI plug-in that mounts NAS volumes.
NAS_CSI_DRIVER = "nasplugin.csi.alibabacloud.com"


class NasFileSystem(NasSpec):
    """A NAS file system (and a mount target in the cluster's VPC) created by this stack.

    Only for data one cluster uses: data that two stacks compare on belongs to a data
    stack (``trainstack:dataStore``) read through a ``stack-reference`` source.
    """

    vswitch_id: VSwitchId | None = Field(
        default=None,
        description="vSwitch of the mount target; unset uses the cluster's first vSwitch.",
    )


class AlicloudNasSource(StrictModel):
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


class NfsSource(StrictModel):
    """An existing NFS export (e.g. NetApp), mounted with the in-tree NFS volume type."""

    type: Literal["nfs"] = Field(description="`nfs`: an existing NFS export.")
    server: Annotated[
        str, StringConstraints(min_length=1, pattern=rf"^([^\s/<>]+|{PLACEHOLDER_PATTERN})$")
    ] = Field(description="NFS server host name or IP address.")
    path: AbsolutePath = Field(description="Exported path on the server.")


class StackReferenceSource(StrictModel):
    """A file system owned by a data stack of this project, read through a StackReference.

    The data stack (e.g. ``stacks/Pulumi.imagenet.yaml``) creates the NAS file system and
    its mount target and exports their facts; every cluster stack that names it mounts
    the very same data.
    """

    type: Literal["stack-reference"] = Field(
        description="`stack-reference`: a file system of a data stack (`trainstack:dataStore`)."
    )
    stack: DnsLabel = Field(description="Name of the data stack, e.g. `imagenet`.")
    dataset: DnsLabel = Field(
        description="Name of the file system in the data stack's `dataStore.fileSystems`."
    )
    path: AbsolutePath | None = Field(
        default=None,
        description="Directory to mount; unset: the directory the data stack exports.",
    )


DatasetSource = Annotated[
    AlicloudNasSource | NfsSource | StackReferenceSource, Field(discriminator="type")
]


def _read_write_many() -> list[AccessMode]:
    return ["ReadWriteMany"]


class Dataset(StrictModel):
    """One shared dataset: a PersistentVolume and the PersistentVolumeClaim bound to it."""

    name: DnsLabel = Field(
        description="Name of both the PV and the PVC; experiments mount it as `claimName`."
    )
    namespace: DnsLabel = Field(
        default="default", description="Namespace of the PVC (where the experiments run)."
    )
    shared_with: list[DnsLabel] = Field(
        default_factory=list,
        description="More namespaces that get a PVC of the same name on the same data (e.g. "
        "other teams'). A PV binds one claim only, so each gets its own PV, named "
        "`<name>-<namespace>`; the PV of `namespace` keeps the dataset's name.",
        examples=[["nlp"]],
    )
    capacity: Quantity = Field(description="Declared capacity, greater than zero, e.g. `1Pi`.")
    access_modes: list[AccessMode] = Field(
        default_factory=_read_write_many,
        min_length=1,
        description="Access modes; shared training data needs `ReadWriteMany` or `ReadOnlyMany`.",
    )
    mount_options: list[str] = Field(
        default_factory=list,
        description="NFS mount options, e.g. `[nolock, tcp, noresvport, vers=3]` for NAS.",
    )
    sub_path: Annotated[str, StringConstraints(pattern=r"^[^/\s][^\s]*$")] | None = Field(
        default=None,
        description="Directory inside the export to expose instead of its root (relative).",
    )
    source: DatasetSource = Field(description="Where the data lives.")
    manifest_sha256: Sha256Digest | None = Field(
        default=None,
        description="The manifest digest this stack expects the data to have (the "
        "`.trainstack-manifest.sha256` the populate Job's verify writes, docs/data.md), "
        "e.g. from a run's results. `diff --fairness` compares it when both stacks declare "
        "it; unset: which bytes were read is checked on the results (`results compare`).",
    )
    protection: Protection = Field(
        default_factory=Protection,
        description="Protection of the dataset's PVs (and of a NAS file system it creates).",
    )

    @model_validator(mode="after")
    def _capacity_above_zero(self) -> Dataset:
        # The API server refuses a PV capacity or PVC request of 0 ("must be greater than
        # zero": kubernetes/kubernetes pkg/apis/core/validation/validation.go,
        # isNotPositiveErrorMsg, checked by ValidatePositiveQuantityValue): refused here,
        # at plan time, instead of at `pulumi up`.
        if parse_quantity(self.capacity) <= 0:
            raise constraint("capacity", self.capacity, "a quantity greater than zero, e.g. 1Ti")
        return self

    @model_validator(mode="after")
    def _sub_path_stays_inside(self) -> Dataset:
        if self.sub_path is not None and ".." in self.sub_path.split("/"):
            raise constraint("subPath", self.sub_path, "a relative path without `..`")
        return self

    @model_validator(mode="after")
    def _shared_namespaces_once(self) -> Dataset:
        seen = {self.namespace}
        for index, namespace in enumerate(self.shared_with):
            if namespace in seen:
                raise constraint(
                    f"sharedWith[{index}]",
                    namespace,
                    "a namespace not listed before and other than `namespace`",
                )
            seen.add(namespace)
        return self

    @property
    def claims(self) -> list[tuple[str, str]]:
        """(namespace, PV name) of every claim: the dataset's own first, then the shared."""
        own = [(self.namespace, self.name)]
        return own + [(namespace, f"{self.name}-{namespace}") for namespace in self.shared_with]

    @property
    def namespaces(self) -> list[str]:
        """Every namespace with a claim on this dataset."""
        return [namespace for namespace, _ in self.claims]

    def export_path(self, base: str | None = None) -> str:
        """The path mounted: the source's export path (or ``base``) joined with the sub-path."""
        root = base or self.source.path
        assert root is not None  # a stack-reference source passes the data stack's path
        if self.sub_path is None:
            return root
        return posixpath.join(root, self.sub_path)
