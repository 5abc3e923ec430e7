"""What the program makes on each kind of cluster: one entry per kind of
``trainstack/config/clusters/registry.py``, naming the functions of the kind's module.

This table is the one place that hands a stack's cluster to its kind: each kind's
functions take its own model (``AlicloudCluster``). An entry offers a cloud's service
exactly when its kind declares the capability (a test holds them together), and the
stack model refuses what needs a capability the kind lacks, so asking here for one a
kind has not is a bug, not a user's mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import pulumi
import pulumi_kubernetes as k8s

from components.clusters import alicloud, existing
from trainstack.config.clusters.alicloud import KIND as ALICLOUD
from trainstack.config.clusters.capabilities import Capability
from trainstack.config.clusters.existing import KIND as EXISTING
from trainstack.config.clusters.registry import Cluster
from trainstack.config.clusters.spec import ClusterKind
from trainstack.config.datasets import Dataset
from trainstack.config.node_pool import NodePool
from trainstack.config.storage import DataStoreModel

PoolMaker = Callable[[NodePool, Any, k8s.Provider, bool], "pulumi.Output[str] | None"]
"""(pool, cluster, Kubernetes provider, takes over the former GPU pool's URNs) -> the
cloud's ID of the pool (``None``: the cluster's nodes have none)."""
Provisioner = Callable[[Any], Any]
"""(cluster) -> the same cluster as the program's other functions take it: created first
when the stack creates it."""
KubeconfigFetcher = Callable[[Any], pulumi.Output[str]]
"""(cluster) -> its kubeconfig, read from the cloud's API."""
FileSystemMaker = Callable[[str, Dataset, Any, pulumi.ResourceOptions], pulumi.Output[str]]
"""(resource name, dataset whose source is the kind's own, cluster, options) -> the server
its PVs mount."""
DataStoreMaker = Callable[[Any], None]
"""(the kind's ``trainstack:dataStore``) -> nothing: its file systems are made and their
facts exported as ``<name>.<fact>`` (the server a cluster mounts among them)."""


class AddonMaker(Protocol):
    """Installs a cluster add-on at an exact version through the cloud's API."""

    def __call__(
        self,
        resource_name: str,
        cluster: Any,
        *,
        addon: str,
        version: str,
        config: Mapping[str, Any],
        opts: pulumi.ResourceOptions,
    ) -> pulumi.CustomResource: ...


@dataclass(frozen=True)
class ClusterComponents:
    """The program's side of one kind of cluster."""

    kind: ClusterKind
    provision: Provisioner
    node_pool: PoolMaker
    kubeconfig: KubeconfigFetcher | None = None
    """With ``kubeconfig-api``: the kubeconfig when the stack sets none."""
    addon: AddonMaker | None = None
    """With ``addons``: operators and components installed by the cloud."""
    file_system: FileSystemMaker | None = None
    """With ``nas``: a file system created for a dataset."""
    data_store: DataStoreMaker | None = None
    """With ``data-stacks``: the file systems of a data stack of the kind."""


COMPONENTS: tuple[ClusterComponents, ...] = (
    ClusterComponents(
        ALICLOUD,
        alicloud.provision,
        alicloud.node_pool,
        alicloud.kubeconfig,
        alicloud.ack_addon,
        alicloud.file_system,
        alicloud.data_store,
    ),
    ClusterComponents(EXISTING, existing.provision, existing.node_pool),
)
_BY_PROVIDER = {entry.kind.provider: entry for entry in COMPONENTS}

_Made = TypeVar("_Made")


def components(cluster: Cluster) -> ClusterComponents:
    """The entry of the cluster's kind."""
    return _BY_PROVIDER[cluster.kind.provider]


def _offered(cluster: Cluster, capability: Capability, made: _Made | None) -> _Made:
    if made is None:
        raise LookupError(
            f"{cluster.label} has no {capability}: the stack model should have refused this"
        )
    return made


def provision(cluster: Cluster) -> Cluster:
    """The stack's cluster, created first when the stack creates it (``create``): every
    other function here takes what this returns."""
    made: Cluster = components(cluster).provision(cluster)
    return made


def node_pool(
    pool: NodePool, cluster: Cluster, kubernetes: k8s.Provider, former_gpu_pool: bool
) -> pulumi.Output[str] | None:
    """The component of ``pool`` on ``cluster``; the pool's ID when the cloud gives one."""
    return components(cluster).node_pool(pool, cluster, kubernetes, former_gpu_pool)


def fetch_kubeconfig(cluster: Cluster) -> pulumi.Output[str]:
    """The cluster's kubeconfig from its cloud's API (``kubeconfig-api``)."""
    fetch = _offered(cluster, "kubeconfig-api", components(cluster).kubeconfig)
    return fetch(cluster)


def install_addon(
    resource_name: str,
    cluster: Cluster,
    *,
    addon: str,
    version: str,
    config: Mapping[str, Any],
    opts: pulumi.ResourceOptions,
) -> pulumi.CustomResource:
    """The cluster add-on ``addon`` at ``version``, installed by the cloud (``addons``)."""
    install = _offered(cluster, "addons", components(cluster).addon)
    return install(resource_name, cluster, addon=addon, version=version, config=config, opts=opts)


def create_file_system(
    name: str, dataset: Dataset, cluster: Cluster, opts: pulumi.ResourceOptions
) -> pulumi.Output[str]:
    """A file system for ``dataset`` in the cluster's network (``nas``); its server."""
    create = _offered(cluster, "nas", components(cluster).file_system)
    return create(name, dataset, cluster, opts)


def make_data_store(store: DataStoreModel) -> None:
    """The file systems of a data stack, by the kind whose store it is (``data-stacks``)."""
    entry = next(e for e in COMPONENTS if e.kind.storage.data_store is type(store))
    if entry.data_store is None:
        raise LookupError(f"{entry.kind.label} has no data-stacks: its storage declares a store")
    entry.data_store(store)
