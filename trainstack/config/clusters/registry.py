"""Every kind of cluster, in one explicit list; ``trainstack:cluster`` is their union.

A new kind is a module beside ``alicloud.py`` (its model and its :class:`ClusterKind`),
its line here (in :data:`KINDS` and :data:`Cluster`; with storage of its own, its models
in :data:`DatasetSource` and :data:`DataStore` too) and its components in
``components/clusters/``. Nothing registers itself by being imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from trainstack.config.clusters.alicloud import KIND as ALICLOUD
from trainstack.config.clusters.alicloud import AlicloudCluster
from trainstack.config.clusters.alicloud_storage import AlicloudDataStore, AlicloudNasSource
from trainstack.config.clusters.existing import KIND as EXISTING
from trainstack.config.clusters.existing import ExistingCluster
from trainstack.config.clusters.spec import ClusterKind, CreateOnlyInputs
from trainstack.config.storage import NfsSource, StackReferenceSource

KINDS: tuple[ClusterKind, ...] = (ALICLOUD, EXISTING)
"""The kinds, in the order of :data:`Cluster`'s members."""

Cluster = Annotated[AlicloudCluster | ExistingCluster, Field(discriminator="provider")]
"""The model of ``trainstack:cluster``, told apart by ``provider``."""

DatasetSource = Annotated[
    AlicloudNasSource | NfsSource | StackReferenceSource, Field(discriminator="type")
]
"""The model of ``datasets[].source``, told apart by ``type``: each kind's own
(``storage.source``) and those of every kind (an NFS export, a data stack's file system)."""

DataStore = AlicloudDataStore
"""The model of a data stack's ``trainstack:dataStore``: each kind's ``storage.data_store``
(one so far; with a second, a union told apart by ``provider``, as :data:`Cluster`)."""


def offline_invokes() -> dict[str, Mapping[str, Any]]:
    """Every kind's answers to its invokes in the offline plan, by invoke token."""
    return {token: answer for k in KINDS for token, answer in k.offline_invokes.items()}


def identity_keys() -> frozenset[str]:
    """Input keys that name a cluster, in any kind (they differ between two clusters)."""
    return frozenset(key for k in KINDS for key in k.identity_keys)


def data_resources() -> dict[str, tuple[str, ...]]:
    """Every kind's data-bearing resource types with the inputs that replace them."""
    return {token: inputs for k in KINDS for token, inputs in k.data_resources.items()}


def create_only_inputs() -> dict[str, CreateOnlyInputs]:
    """Every kind's resource types with the inputs its cloud reads at creation only."""
    return {token: inputs for k in KINDS for token, inputs in k.create_only_inputs.items()}
