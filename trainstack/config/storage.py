"""What shared code asks of storage: a dataset source, a data stack's store, a mount.

Each cluster kind with storage of its own declares it in its own module
(``clusters/alicloud_storage.py``): the model of its dataset source and of a data
stack's store, the facts they report and how a PV mounts them (:class:`Storage`, on the
kind's :class:`~trainstack.config.clusters.spec.ClusterKind`). The registry joins them
into the stack models (``clusters/registry.py``); shared code (resolution, the stack's
rules, the program's volumes) asks these bases, never a source's type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.populate import Populate
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN, DnsLabel

if TYPE_CHECKING:
    from trainstack.config.clusters.capabilities import Capability

AbsolutePath = Annotated[str, StringConstraints(pattern=r"^/[^\s]*$")]


@dataclass(frozen=True)
class Fact:
    """One fact of a dataset and the key (in its stack file) it comes from."""

    value: Any
    key: str


@dataclass(frozen=True)
class Mount:
    """How a PersistentVolume reaches a source's data: through a CSI driver (its handle is
    the PV's name, its attributes the server and path) or, without one, Kubernetes'
    in-tree NFS volume (server and path)."""

    csi_driver: str | None = None


IN_TREE_NFS = Mount()


@dataclass(frozen=True)
class Need:
    """What a source needs of the cluster's kind, and what the stack says when it lacks it."""

    capability: Capability
    key: str
    """Under the source (``create``): where the refusal points."""
    found: str
    allowed: str
    """What to write instead, with ``{kind}`` for the kind's label (``an ACK cluster``)."""


@dataclass(frozen=True)
class Referenced:
    """A file system of a data stack, by the names a ``stack-reference`` source gives."""

    stack: str
    file_system: str


class Protection(StrictModel):
    """Whether Pulumi refuses to delete or replace the data-bearing resources."""

    enabled: bool = Field(
        default=True,
        description="Protect the NAS file system and mount target (and a cluster's dataset "
        "PVs): deleting or replacing them fails until `pulumi state unprotect`, and a NAS "
        "file system that leaves the stack is kept in the cloud. `false` only for "
        "throw-away data.",
    )


class SourceModel(StrictModel):
    """The base of each ``datasets[].source`` model (tagged by ``type``)."""

    mount: ClassVar[Mount | None]
    """How its PVs mount it; ``None``: as the store of the data stack it names."""

    def given_server(self) -> str | None:
        """The server its PVs mount, when the file says it; ``None``: the program makes it
        (a file system the stack creates) or reads it (a data stack's output)."""
        return None

    def needs(self) -> Need | None:
        """A capability of the cluster's kind the source needs, if any."""
        return None

    def referenced(self) -> Referenced | None:
        """The data stack's file system it mounts, when it mounts one."""
        return None

    def facts(self, stack: str, key: str) -> dict[str, Fact]:
        """What the source says of the data, each at its key under ``key`` (the source's),
        beyond the path and mount options every dataset has; ``stack``: the stack's name."""
        return {}


class NfsSource(SourceModel):
    """An existing NFS export (e.g. NetApp), mounted with the in-tree NFS volume type."""

    type: Literal["nfs"] = Field(description="`nfs`: an existing NFS export.")
    server: Annotated[
        str, StringConstraints(min_length=1, pattern=rf"^([^\s/<>]+|{PLACEHOLDER_PATTERN})$")
    ] = Field(description="NFS server host name or IP address.")
    path: AbsolutePath = Field(description="Exported path on the server.")

    mount: ClassVar[Mount | None] = IN_TREE_NFS

    def given_server(self) -> str | None:
        """The export's server."""
        return self.server

    def facts(self, stack: str, key: str) -> dict[str, Fact]:
        """The server: two exports of one path on different servers are different data."""
        return {"fileSystem": Fact(f"nfs server {self.server}", f"{key}.server")}


class StackReferenceSource(SourceModel):
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

    mount: ClassVar[Mount | None] = None

    def referenced(self) -> Referenced | None:
        """The data stack and its file system."""
        return Referenced(self.stack, self.dataset)


class StoreFileSystem(Protocol):
    """One file system of a data stack's store, as shared code reads it."""

    name: str
    path: str
    protection: Protection
    populate: Populate | None

    def facts(self, where: str, in_file: str) -> dict[str, Fact]:
        """What it says of the data, each at its key (``<where>.<key><in_file>``)."""
        ...

    def summary(self) -> str:
        """The file system in the plan (``standard NAS, Performance, NFS, zone ...``)."""
        ...


class DataStoreModel(StrictModel):
    """The base of each ``trainstack:dataStore`` model (tagged by ``provider``)."""

    mount: ClassVar[Mount]
    """How a cluster's PVs mount its file systems."""
    server_output: ClassVar[str]
    """The output (``<file system>.<this>``) that holds the server a cluster mounts."""
    network_reason: ClassVar[str]
    """Why a cluster that mounts it must share its network (in messages)."""

    if TYPE_CHECKING:  # each store declares the field, where its keys are documented
        file_systems: Sequence[StoreFileSystem]

    @model_validator(mode="after")
    def _unique_names(self) -> DataStoreModel:
        seen: dict[str, int] = {}
        for index, file_system in enumerate(self.file_systems):
            if file_system.name in seen:
                raise constraint(
                    f"fileSystems[{index}].name",
                    file_system.name,
                    f"a name no other file system uses (fileSystems[{seen[file_system.name]}] "
                    "has it)",
                )
            seen[file_system.name] = index
        return self

    def file_system(self, name: str) -> tuple[int, StoreFileSystem] | None:
        """The index and file system called ``name``, if any."""
        for index, file_system in enumerate(self.file_systems):
            if file_system.name == name:
                return index, file_system
        return None

    def network(self) -> dict[str, str]:
        """The keys that place the store in its cloud's network, with their values: a
        cluster that mounts it must have the same (``ClusterModel.network``)."""
        return {}


@dataclass(frozen=True)
class Storage:
    """What a cluster kind offers for data: its own dataset source and the store of a data
    stack its clusters mount (both ``None`` on kinds without storage of their own)."""

    source: type[SourceModel] | None = None
    data_store: type[DataStoreModel] | None = None
