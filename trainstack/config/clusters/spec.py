"""What a kind of cluster is to trainstack: its spec, and the base of its stack model.

One frozen :class:`ClusterKind` per value of ``trainstack:cluster.provider``, declared in
the kind's own module with its model (``alicloud.py``, ``existing.py``) and listed in
``registry.py``. Code asks the stack's cluster (``cluster.supports("nas")``) instead of
testing its kind; the program's side of each kind is ``components/clusters/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from trainstack.config.capacity import NOTHING, NodeAllocatable
from trainstack.config.clusters.capabilities import Capability
from trainstack.config.prices import NO_PRICES, PriceList
from trainstack.config.storage import Mount, SourceModel, Storage
from trainstack.core.base_model import StrictModel, constraint

if TYPE_CHECKING:
    from trainstack.config.node_pool import NodePool


def declared_only(cluster: ClusterModel, pool: NodePool, key: str) -> NodeAllocatable:
    """A kind that derives no allocatable: a capacity without its allocatable is refused."""
    for name, capacity, resource in (
        ("cpuPerNode", pool.cpu_per_node, "cpu"),
        ("memoryPerNode", pool.memory_per_node, "memory"),
    ):
        declared = None if pool.allocatable is None else getattr(pool.allocatable, resource)
        if capacity is not None and declared is None:
            raise constraint(
                f"{key}.allocatable.{resource}",
                None,
                f"what pods can request on a node of pool {pool.name}: on {cluster.label} "
                f"trainstack cannot derive it from {name} ({capacity}), the node's capacity; "
                "declare it as `kubectl describe node <node>` shows it under Allocatable",
            )
    return NOTHING


@dataclass(frozen=True)
class CreateOnlyInputs:
    """Inputs of one resource type that its cloud reads when it creates the resource, and
    never after: a later change is accepted, ``pulumi up`` reports success, and the running
    resource never gets it. ``trainstack diff`` says so of every such change."""

    reason: str
    """What becomes of such a change, as the diff says it (``not applied to the running
    cluster: ACK reads it at creation only``)."""
    remedies: Mapping[str, str]
    """Each such input (top-level, as the plan records it: ``addons``) with what to do
    instead."""


@dataclass(frozen=True)
class ClusterKind:
    """One kind of cluster: everything about it that code outside its module needs."""

    provider: str
    """The value of ``trainstack:cluster.provider`` (the model's tag)."""
    label: str
    """The kind in messages: ``an ACK cluster``, ``an existing cluster``."""
    capabilities: frozenset[Capability]
    check_pool: Callable[[str, NodePool], None]
    """Raises a constraint error when a pool (at key ``nodePools[i]``) says what the kind
    refuses or lacks what it requires."""
    api: str = ""
    """The cloud API the program calls (``ACK``), in messages about what it fetches."""
    offline_invokes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Answers of the offline plan to the invokes the kind's components make, by invoke
    token: placeholders standing for what the cloud answers at deploy time."""
    identity_keys: frozenset[str] = frozenset()
    """Input keys that name the cluster itself (``clusterId``, at any depth of any
    resource; ``<type token>#<input>``: that top-level input of that type only): two
    stacks compared for fairness are two clusters, so these differ without making the
    comparison unfair."""
    data_resources: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Resource types of the cloud that hold data (or every cluster's way to it), each with
    the inputs whose change replaces the resource: the diff's data-loss check."""
    create_only_inputs: Mapping[str, CreateOnlyInputs] = field(default_factory=dict)
    """Resource types of the cloud with inputs it reads at creation only, by type token:
    the diff's not-applied check."""
    derive_allocatable: Callable[[ClusterModel, NodePool, str], NodeAllocatable] = declared_only
    """What pods can request on a node of a pool (at key ``nodePools[i]``) when the pool
    declares only its capacity: the kind's cloud's documented reservation, or a
    constraint error naming what to declare (see ``trainstack.config.capacity``)."""
    prices: PriceList = NO_PRICES
    """What the kind's nodes cost per hour, by instance type and region (see
    ``trainstack.config.prices``); a stack adds its own (``trainstack:cost.prices``)."""
    storage: Storage = Storage()
    """Its own dataset source and data stack store, with their facts and mounts (see
    ``trainstack.config.storage``); a kind without offers ``nfs`` sources only."""

    def supports(self, capability: Capability) -> bool:
        """Whether the kind's cloud offers ``capability``."""
        return capability in self.capabilities


class ClusterModel(StrictModel):
    """The base of each kind's ``trainstack:cluster`` model: what code asks a cluster."""

    kind: ClassVar[ClusterKind]

    @property
    def label(self) -> str:
        """The kind in messages (``an ACK cluster``)."""
        return self.kind.label

    def supports(self, capability: Capability) -> bool:
        """Whether the cluster's cloud offers ``capability`` (see :data:`Capability`)."""
        return self.kind.supports(capability)

    def check_pool(self, key: str, pool: NodePool) -> None:
        """What a node pool may set on this kind (see :attr:`ClusterKind.check_pool`)."""
        self.kind.check_pool(key, pool)

    def derived_allocatable(self, pool: NodePool, key: str) -> NodeAllocatable:
        """What the kind derives for one node of ``pool`` (see
        :attr:`ClusterKind.derive_allocatable`)."""
        return self.kind.derive_allocatable(self, pool, key)

    def mount(self, source: SourceModel) -> Mount | None:
        """How the cluster's PVs mount ``source``: the source's way, or, for a data stack's
        file system, its kind's store's (``None``: the kind has no data stacks)."""
        store = self.kind.storage.data_store
        return source.mount or (store.mount if store is not None else None)

    def check_mount(self, mount: Mount, dataset: str) -> None:
        """Raises when the cluster, as the stack creates it, lacks what ``mount`` needs
        (its CSI driver's add-ons) for the dataset at key ``dataset``."""

    @property
    def creates(self) -> bool:
        """Whether the stack creates the cluster (``create``) rather than naming one."""
        return False

    @property
    def kubeconfig_context(self) -> str | None:
        """The kubeconfig context to use (``None``: the kubeconfig's current one)."""
        return None

    def in_region(self, host: str) -> bool:
        """Whether ``host`` (a registry, bucket or web host) serves from inside the cluster's
        own region or network; ``False`` on kinds that do not know theirs."""
        return False

    @property
    def region_label(self) -> str:
        """How messages name where the cluster is (``region cn-beijing``)."""
        return "the cluster's network (not known to trainstack)"

    def network(self) -> dict[str, str]:
        """The keys of ``trainstack:cluster`` that place it in its cloud's network, with
        their values (``vpcId``, ``region``): a data stack the cluster mounts must have the
        same (``data-stacks``). Empty on kinds without one."""
        return {}
