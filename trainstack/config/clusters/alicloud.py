"""An existing ACK (Alibaba Cloud Container Service for Kubernetes) cluster.

Its cloud's services are there: node pools created through ACK's API, ACK add-ons, new
NAS file systems and data stacks in its VPC, a kubeconfig fetched from ACK. What ACK's
node pool API takes of a pool (ECS instance types, disk, login: :class:`AckPool`) and
requires (:func:`check_pool`) is here; the Alibaba Cloud provider's documented rules are
in ``alicloud_rules.py``; the program's side is ``components/clusters/alicloud.py``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, PrivateAttr, StringConstraints, ValidationError, model_validator

from trainstack.config.capacity import NodeAllocatable
from trainstack.config.clusters import ack_reservation as reservation
from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.ack_create import CREATE_ONLY, AckCreate, minor_of
from trainstack.config.clusters.alicloud_ids import RegionId, VpcId, VSwitchId
from trainstack.config.clusters.alicloud_prices import PRICES
from trainstack.config.clusters.alicloud_storage import STORAGE, check_nas_addons
from trainstack.config.clusters.spec import ClusterKind, ClusterModel
from trainstack.config.node_pool import NodePool, SecretConfigKey
from trainstack.config.storage import Mount
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import PLACEHOLDER_PATTERN
from trainstack.core.validation import errors_under

# IDs a user must look up may be left as placeholders (``<...>``) until deploying.
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


def regional_host(host: str, region: str) -> bool:
    """Whether ``host`` serves from ``region``: Container Registry, personal edition
    (``registry.<region>.aliyuncs.com``, ``registry-vpc.<region>.aliyuncs.com``: Arena's
    charts pull ``registry.<region>.aliyuncs.com/acs/...`` and switch to ``registry-vpc.``
    inside a VPC, kubeflow/arena arena-artifacts/templates/_helpers.tpl lines 1-9);
    Enterprise Edition instances (``<instance>-registry[-vpc].<region>.cr.aliyuncs.com``,
    Container Registry API RouteItem, "test-instance-registry-vpc.cn-hangzhou.cr.aliyuncs.com");
    ACK's own (``registry-<region>[-vpc].ack.aliyuncs.com``, arena-artifacts values.yaml
    ``global.imagePrefix``); OSS (``<bucket>.oss-<region>[-internal].aliyuncs.com``)."""
    host = host.lower()
    return (
        host in (f"registry.{region}.aliyuncs.com", f"registry-vpc.{region}.aliyuncs.com")
        or host
        in (f"registry-{region}.ack.aliyuncs.com", f"registry-{region}-vpc.ack.aliyuncs.com")
        or host.endswith(f".{region}.cr.aliyuncs.com")
        or host.endswith((f".oss-{region}.aliyuncs.com", f".oss-{region}-internal.aliyuncs.com"))
    )


def derive_allocatable(cluster: ClusterModel, pool: NodePool, key: str) -> NodeAllocatable:
    """What ACK's default reservation leaves to pods on a node of ``pool``."""
    assert isinstance(cluster, AlicloudCluster)
    return reservation.allocatable(cluster.kubernetes_minor, cluster.kubernetes_version, pool, key)


MANAGED_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"

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
    # A created cluster's name differs per stack (`trainstack-<stack>`); only that
    # resource's `name` input, not every `name`.
    identity_keys=frozenset({"clusterId", f"{MANAGED_CLUSTER}#name"}),
    derive_allocatable=derive_allocatable,
    data_resources={
        MANAGED_CLUSTER: rules.CLUSTER_REPLACED_BY,
        "alicloud:nas/fileSystem:FileSystem": rules.FILE_SYSTEM_REPLACED_BY,
        "alicloud:nas/mountTarget:MountTarget": rules.MOUNT_TARGET_REPLACED_BY,
    },
    create_only_inputs={MANAGED_CLUSTER: CREATE_ONLY},
    prices=PRICES,
    storage=STORAGE,
)


class AlicloudCluster(ClusterModel):
    """An ACK (Alibaba Cloud Container Service for Kubernetes) cluster: an existing one
    (``clusterId``) or one the stack creates (``create``)."""

    provider: Literal["alicloud"] = Field(
        description="`alicloud`: an ACK cluster; the GPU node pool and NAS file "
        "systems are created through the Alibaba Cloud API."
    )
    cluster_id: AckClusterId | None = Field(
        default=None,
        description="ID of an existing ACK cluster (console: Cluster information > Basic "
        "information); exactly one of clusterId and create.",
    )
    create: AckCreate | None = Field(
        default=None,
        description="Create the ACK managed cluster instead of naming one: version, spec, "
        "network, add-ons (see docs/clusters.md); exactly one of clusterId and create.",
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
    _created_id: Any = PrivateAttr(default=None)

    def targeting(self, created_id: Any) -> AlicloudCluster:
        """A copy naming the cluster the program created by ``created_id`` (its output)."""
        copy = self.model_copy()
        copy._created_id = created_id
        return copy

    @property
    def id_input(self) -> Any:
        """The cluster's ID as the program passes it: ``clusterId``, or the created one's
        (an output of the program; see :meth:`targeting`)."""
        if self.create is None:
            return self.cluster_id
        if self._created_id is None:
            raise LookupError("the created ACK cluster was not provisioned before its use")
        return self._created_id

    @model_validator(mode="after")
    def _existing_or_created(self) -> AlicloudCluster:
        if (self.cluster_id is None) == (self.create is None):
            raise constraint(
                "clusterId",
                self.cluster_id,
                "exactly one of clusterId (an existing cluster) and create (a new one)",
                ("create",),
            )
        if self.create is None:
            return self
        if len(self.vswitch_ids) > rules.CLUSTER_VSWITCHES_MAX:
            raise constraint(
                "vswitchIds",
                self.vswitch_ids,
                f"1 to {rules.CLUSTER_VSWITCHES_MAX} vSwitches for a created cluster",
            )
        created = minor_of(self.create.version)
        declared = self._declared_minor
        if created is not None and declared is not None and created != declared:
            raise constraint(
                "kubernetesVersion",
                self.kubernetes_version,
                f"the minor of create.version ({self.create.version}), or unset",
                ("create.version",),
            )
        return self

    @property
    def _declared_minor(self) -> tuple[int, int] | None:
        return None if self.kubernetes_version is None else minor_of(self.kubernetes_version)

    def check_mount(self, mount: Mount, dataset: str) -> None:
        """A created cluster needs the NAS CSI add-ons (an existing one's are its own)."""
        check_nas_addons(self.create, mount, dataset)

    @property
    def creates(self) -> bool:
        """Whether the stack creates the cluster (``create``)."""
        return self.create is not None

    @property
    def kubernetes_minor(self) -> tuple[int, int] | None:
        """``(1, 35)`` from ``create.version`` or ``kubernetesVersion``, when known."""
        return (self.create and minor_of(self.create.version)) or self._declared_minor

    def in_region(self, host: str) -> bool:
        """Whether ``host`` is one of Alibaba Cloud's endpoints in the cluster's region (see
        :func:`regional_host`)."""
        return regional_host(host, self.region)

    @property
    def region_label(self) -> str:
        """``region cn-beijing``."""
        return f"region {self.region}"

    def network(self) -> dict[str, str]:
        """The VPC and region: NAS mount targets serve their own VPC only."""
        return {"vpcId": self.vpc_id, "region": self.region}
