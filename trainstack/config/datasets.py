"""Shared datasets, exposed to training pods as a static PV + PVC pair.

Where the data lives (``source``) is one of the sources the cluster kinds declare (an
``nfs`` export, a data stack's file system, or a kind's own: ACK's NAS), joined in
``clusters/registry.py``.
"""

from __future__ import annotations

import posixpath
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.clusters.registry import DatasetSource
from trainstack.config.storage import Protection
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import DnsLabel, Quantity, Sha256Digest
from trainstack.core.quantity import parse_quantity

AccessMode = Literal["ReadWriteMany", "ReadOnlyMany", "ReadWriteOnce", "ReadWriteOncePod"]


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
