"""An existing ACK (Alibaba Cloud Container Service for Kubernetes) cluster.

Its cloud's services are there: node pools created through ACK's API, ACK add-ons, new
NAS file systems and data stacks in its VPC, a kubeconfig fetched from ACK. What ACK's
node pool API takes of a pool (ECS instance types, disk, login: :class:`AckPool`) and
requires (:func:`check_pool`) is here; the Alibaba Cloud provider's documented rules are
in ``alicloud_rules.py``; the program's side is ``components/clusters/alicloud.py``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator

from trainstack.config.capacity import NOTHING, NodeAllocatable, NodeResource
from trainstack.config.clusters import ack_reservation as reservation
from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.spec import ClusterKind, ClusterModel
from trainstack.config.node_pool import NodePool, SecretConfigKey
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.core.validation import errors_under

RegionId = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}-[a-z0-9-]+$")]
# IDs a user must look up may be left as placeholders (``<...>``) until deploying.
VpcId = Annotated[str, StringConstraints(pattern=rf"^(vpc-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
VSwitchId = Annotated[str, StringConstraints(pattern=rf"^(vsw-[a-z0-9]+|{PLACEHOLDER_PATTERN})$")]
AckClusterId = Annotated[
    str, StringConstraints(pattern=rf"^(c[a-z0-9]{{6,}}|{PLACEHOLDER_PATTERN})$")
]
KubernetesVersion = Annotated[
    str, StringConstraints(pattern=r"^1\.[0-9]{1,2}(\.[0-9]{1,3})?(-aliyun\.[0-9]{1,3})?$")
]
InstanceType = Annotated[str, StringConstraints(pattern=r"^ecs\.[a-z0-9-]+\.[a-z0-9]+$")]
# ECS key pair names: 2-128 characters, a letter first, no "/" so no "http://" (ECS API
# ImportKeyPair).
KeyPairName = Annotated[
    str,
    StringConstraints(pattern=rf"^([A-Za-z][A-Za-z0-9._:-]{{1,127}}|{PLACEHOLDER_PATTERN})$"),
]


class SystemDisk(StrictModel):
    """The system disk of each node (images of training containers are large)."""

    category: Literal[
        "cloud_essd", "cloud_ssd", "cloud_efficiency", "cloud_auto", "cloud_essd_entry", "cloud"
    ] = Field(default="cloud_essd", description="ECS disk category.")
    size_gib: int = Field(
        default=120,
        description="Size in GiB: 20-500 for `cloud`, 1-2048 for `cloud_auto`, 20-2048 "
        "otherwise (ESSD at its default performance level PL1).",
    )

    @model_validator(mode="after")
    def _size_for_category(self) -> SystemDisk:
        low, high = rules.SYSTEM_DISK_SIZES[self.category]
        if not low <= self.size_gib <= high:
            raise constraint(
                "sizeGib", self.size_gib, f"{low} to {high} GiB for category {self.category}"
            )
        return self


class Login(StrictModel):
    """How to log in to the pool's nodes (ACK requires one way): a key pair or a password."""

    key_name: KeyPairName | None = Field(
        default=None, description="Name of an ECS key pair in the region."
    )
    password_secret: SecretConfigKey | None = Field(
        default=None, description="Name of a secret config key holding the root password."
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> Login:
        # TF: key_name conflicts with password; DOC: "You have to specify one of".
        if (self.key_name is None) == (self.password_secret is None):
            raise constraint(
                "keyName",
                self.key_name,
                "exactly one of keyName (an ECS key pair) or passwordSecret (a secret config key)",
            )
        return self


class AckPool(StrictModel):
    """What an ACK node pool takes of a pool's keys, with ACK's values and defaults."""

    instance_types: list[InstanceType] = Field(
        default_factory=list, description="ECS instance types, in order of preference."
    )
    system_disk: SystemDisk = Field(
        default_factory=lambda: SystemDisk.model_validate({}),
        description="System disk of each node.",
    )
    login: Login | None = Field(default=None, description="A key pair or a password secret.")

    @classmethod
    def of(cls, pool: NodePool) -> AckPool:
        """The pool's ACK keys as ACK reads them (raises pydantic's errors, at these keys)."""
        keys = {"instance_types", "system_disk", "login"}
        return cls.model_validate(pool.model_dump(include=keys, exclude_unset=True, by_alias=True))


def check_pool(key: str, pool: NodePool) -> None:
    """What ACK's node pool API takes and requires (see ``alicloud_rules.py``)."""
    try:
        AckPool.of(pool)
    except ValidationError as error:
        raise errors_under(error, key) from None
    if not pool.instance_types:
        raise constraint(f"{key}.instanceTypes", [], "at least one ECS instance type on alicloud")
    if pool.nodes:
        raise constraint(
            f"{key}.nodes", pool.nodes, "nothing on alicloud (ACK creates and names the nodes)"
        )
    if pool.login is None:
        raise constraint(
            f"{key}.login",
            None,
            "a login method ACK requires: `{keyName: <ECS key pair>}` or "
            "`{passwordSecret: trainstack:<key>}` naming a secret config key",
        )
    if "taint_policy" in pool.model_fields_set:
        raise constraint(
            f"{key}.taintPolicy",
            pool.taint_policy,
            "nothing on alicloud (ACK taints the nodes)",
        )


def derive_allocatable(cluster: ClusterModel, pool: NodePool, key: str) -> NodeAllocatable:
    """What ACK's default reservation leaves to pods on a node of ``pool`` (see
    ``ack_reservation.py``), from the capacity the pool declares; what the pool declares
    in ``allocatable`` is not derived (``trainstack.config.capacity`` puts it over this)."""
    declared = pool.allocatable
    derive_cpu = pool.cpu_per_node is not None and (declared is None or declared.cpu is None)
    derive_memory = pool.memory_per_node is not None and (
        declared is None or declared.memory is None
    )
    if not (derive_cpu or derive_memory):
        return NOTHING
    assert isinstance(cluster, AlicloudCluster)
    version = cluster.kubernetes_minor
    if version is None or version < reservation.OLDEST:
        raise constraint(
            "cluster.kubernetesVersion",
            cluster.kubernetes_version,
            f"the cluster's Kubernetes version, 1.20 or later (e.g. `1.35`; console: Cluster "
            f"information): ACK reserves part of each node by version ({reservation.DOC}), so "
            f"what pods can request on pool {pool.name} depends on it; or declare "
            f"{key}.allocatable",
        )
    cpu = memory = None
    if derive_cpu:
        capacity = pool.cpu_capacity
        assert capacity is not None
        reserved = reservation.reserved_cpu(capacity, version)
        cpu = NodeResource(capacity - reserved, capacity, reserved, f"{key}.cpuPerNode")
    assumed: tuple[str, ...] = ()
    if derive_memory:
        if version >= reservation.NEW_POLICY and pool.max_pods is None:
            raise constraint(
                f"{key}.maxPods",
                None,
                "the nodes' maximum pods (ACK console: Nodes page): from Kubernetes 1.28 "
                f"ACK's memory reservation grows with it ({reservation.DOC}); or declare "
                f"{key}.allocatable.memory",
            )
        capacity = pool.memory_capacity
        assert capacity is not None
        eviction = reservation.EVICTION_THRESHOLD
        if pool.eviction_threshold is not None:
            eviction = parse_quantity(pool.eviction_threshold)
        else:
            assumed = (
                f"eviction threshold {format_quantity(eviction)} on pool {pool.name}: ACK "
                "documents none, inferred from its own example; set "
                f"trainstack:{key}.evictionThreshold",
            )
        reserved = reservation.reserved_memory(capacity, version, pool.max_pods)
        allocatable = reservation.whole_mib(capacity - reserved - eviction)
        memory = NodeResource(allocatable, capacity, capacity - allocatable, f"{key}.memoryPerNode")
    pods = (
        f", max pods {pool.max_pods}" if pool.max_pods and version >= reservation.NEW_POLICY else ""
    )
    source = (
        f"ACK's resource reservation policy for Kubernetes {version[0]}.{version[1]}{pods}, "
        f"{reservation.DOC}"
    )
    return NodeAllocatable(cpu, memory, source, assumed)


KIND = ClusterKind(
    provider="alicloud",
    label="an ACK cluster",
    capabilities=frozenset({"node-api", "addons", "nas", "data-stacks", "kubeconfig-api"}),
    check_pool=check_pool,
    api="ACK",
    offline_invokes={
        "alicloud:cs/getClusterCredential:getClusterCredential": {
            "kubeConfig": "[kubeconfig fetched from ACK at deploy time]",
        },
    },
    identity_keys=frozenset({"clusterId"}),
    derive_allocatable=derive_allocatable,
    data_resources={
        "alicloud:nas/fileSystem:FileSystem": rules.FILE_SYSTEM_REPLACED_BY,
        "alicloud:nas/mountTarget:MountTarget": rules.MOUNT_TARGET_REPLACED_BY,
    },
)


class AlicloudCluster(ClusterModel):
    """An existing ACK (Alibaba Cloud Container Service for Kubernetes) cluster."""

    provider: Literal["alicloud"] = Field(
        description="`alicloud`: an existing ACK cluster; the GPU node pool and NAS file "
        "systems are created through the Alibaba Cloud API."
    )
    cluster_id: AckClusterId = Field(
        description="ID of the ACK cluster (console: Cluster information > Basic information)."
    )
    region: RegionId = Field(description="Region of the cluster, e.g. `cn-beijing`.")
    vpc_id: VpcId = Field(description="VPC of the cluster; NAS mount targets are created in it.")
    kubernetes_version: KubernetesVersion | None = Field(
        default=None,
        description="The cluster's Kubernetes version (console: Cluster information), e.g. "
        "`1.35` or `1.35.1-aliyun.1`: ACK's default node reservation, and so what pods can "
        "request on each node (pools that declare cpuPerNode/memoryPerNode), depends on it.",
    )
    vswitch_ids: list[VSwitchId] = Field(
        min_length=1,
        description="vSwitches the GPU nodes are placed in (their zones must offer the "
        "instance types). The first one also hosts NAS mount targets unless a dataset names "
        "its own.",
    )

    kind: ClassVar[ClusterKind] = KIND

    @property
    def kubernetes_minor(self) -> tuple[int, int] | None:
        """``(1, 35)`` from ``kubernetesVersion``, when set."""
        if self.kubernetes_version is None:
            return None
        major, minor = self.kubernetes_version.split("-")[0].split(".")[:2]
        return int(major), int(minor)

    def network(self) -> dict[str, str]:
        """The VPC and region: NAS mount targets serve their own VPC only."""
        return {"vpcId": self.vpc_id, "region": self.region}
