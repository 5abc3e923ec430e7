"""Node pools: GPU pools that train, CPU pools for launchers, parameter servers and tools.

A stack lists its pools under ``trainstack:nodePools``. On ACK each pool is a
``cs.NodePool``; on an existing cluster a pool describes nodes that already exist (and,
when ``nodes`` lists them, labels and taints them). What creating the nodes takes
(``instanceTypes``, ``systemDisk``, ``login``) has the same keys on every kind; which
values the cloud accepts, and the defaults, are its kind's (``config/clusters/``, e.g.
ECS instance types and disk categories on ACK), checked there so that a plan refuses
what ``pulumi up`` would fail on, naming the key.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.gpu_models import unsupported_driver
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.names import LabelKey, LabelValue, NodeName, Quantity
from trainstack.core.quantity import parse_quantity

PoolName = Annotated[str, StringConstraints(pattern=r"^[a-z][-a-z0-9]{0,62}$")]
SecretConfigKey = Annotated[str, StringConstraints(pattern=r"^trainstack:[A-Za-z][A-Za-z0-9]*$")]
DriverVersion = Annotated[str, StringConstraints(pattern=r"^[0-9]{3}\.[0-9]{1,3}(\.[0-9]{1,3})?$")]

GPU_RESOURCE = "nvidia.com/gpu"
GPU_TAINT = {"key": GPU_RESOURCE, "value": "true", "effect": "NoSchedule"}
"""The default taint of a GPU pool: only pods that tolerate it (GPU work) land there."""


class Taint(StrictModel):
    """A node taint: pods without a matching toleration are kept off the node."""

    key: LabelKey = Field(description="Taint key, e.g. `nvidia.com/gpu`.")
    value: LabelValue = Field(default="", description="Taint value, e.g. `true`.")
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] = Field(
        default="NoSchedule", description="What happens to pods that do not tolerate the taint."
    )

    def toleration(self) -> dict[str, str]:
        """The toleration that lets a pod onto nodes with this taint."""
        if self.value:
            return {
                "key": self.key,
                "operator": "Equal",
                "value": self.value,
                "effect": self.effect,
            }
        return {"key": self.key, "operator": "Exists", "effect": self.effect}


class Autoscaling(StrictModel):
    """Cluster-autoscaler bounds of the pool (ACK node pool auto scaling)."""

    enabled: bool = Field(default=False, description="Let the cluster autoscaler resize the pool.")
    min_size: int = Field(
        default=0,
        ge=0,
        le=rules.SCALING_MIN_SIZE_MAX,
        description="Fewest nodes when scaled in (ACK: 0-1000).",
    )
    max_size: int = Field(
        ge=1,
        le=rules.SCALING_MAX_SIZE_MAX,
        description="Most nodes when scaled out; greater than minSize (ACK: up to 2000).",
    )

    @model_validator(mode="after")
    def _bounds(self) -> Autoscaling:
        # The provider: "`max_size` has to be greater than `min_size`" (see alicloud_rules).
        if self.max_size <= self.min_size:
            raise constraint(
                "maxSize", self.max_size, f"greater than minSize ({self.min_size}), as ACK requires"
            )
        return self


class SystemDisk(StrictModel):
    """The system disk of each created node (images of training containers are large); the
    categories, sizes and defaults are the cluster kind's."""

    category: str | None = Field(
        default=None, description="Disk category of the cloud (ACK: ECS, default `cloud_essd`)."
    )
    size_gib: int | None = Field(
        default=None, description="Size in GiB, in the category's range (ACK: default 120)."
    )


class Login(StrictModel):
    """How to log in to created nodes: a key pair, or a password kept in a secret; which
    the cloud accepts (ACK: exactly one) is the cluster kind's."""

    key_name: str | None = Field(
        default=None,
        description="Name of a key pair of the cloud in the region (ACK: an ECS key pair, the "
        "only way on managed node pools), e.g. `trainstack-nodes`.",
    )
    password_secret: SecretConfigKey | None = Field(
        default=None,
        description="Name of a secret config key holding the root password, e.g. "
        "`trainstack:nodePassword` (`pulumi config set --secret trainstack:nodePassword`); "
        "never the password itself (ACK: 8-30 characters, three of upper, lower, digits, "
        "symbols).",
    )


class NodeAmounts(StrictModel):
    """CPU and memory of one node."""

    cpu: Quantity | None = Field(default=None, description='CPU cores, e.g. `"47810m"`.')
    memory: Quantity | None = Field(default=None, description="Memory, e.g. `364Gi`.")


class NodePool(StrictModel):
    """One pool of identical nodes: GPU nodes that train, or CPU nodes (gpusPerNode: 0)."""

    name: PoolName = Field(description="Name of the node pool (and of its Kueue ResourceFlavor).")
    instance_types: list[str] = Field(
        default_factory=list,
        description="Instance types of the created nodes, in order of preference (ACK: ECS "
        "instance types, e.g. `ecs.gn6e-c12g1.12xlarge`). All must have the same GPUs, CPU "
        "and memory per node.",
    )
    gpus_per_node: int = Field(
        ge=0, le=16, description="GPUs on each node; 0 for a CPU pool (launchers, PS, tools)."
    )
    gpu_model: str | None = Field(
        default=None,
        min_length=1,
        description="GPU model, e.g. `V100`: required for a GPU pool, unset for a CPU pool. "
        "Teams' per-model quotas (`quota.gpuModels`) name it.",
    )
    nvidia_driver: DriverVersion | None = Field(
        default=None,
        description="The NVIDIA driver the pool's GPU nodes run, e.g. `550.144.03`: ACK "
        "installs it on nodes as they join through its node pool label (one of the "
        "versions ACK lists, docs/node-pools.md); elsewhere it describes the nodes. A "
        "branch that does not support gpuModel is refused. Unset: the cluster's default.",
    )
    cpu_per_node: Quantity | None = Field(
        default=None,
        description="CPU of a node as its instance type has it, its capacity (e.g. `48` for "
        "ecs.gn6e-c12g1.12xlarge). What pods can request is less, the allocatable: derived "
        "by the cluster's kind (ACK: its resource reservation policy) or declared in "
        "`allocatable`; plan-time checks, quotas and Kueue's nominal quotas use it.",
    )
    memory_per_node: Quantity | None = Field(
        default=None,
        description="Memory of a node as its instance type has it, its capacity (e.g. "
        "`368Gi`); see cpuPerNode for what pods can request.",
    )
    allocatable: NodeAmounts | None = Field(
        default=None,
        description="What pods can request on a node, as `kubectl describe node` shows "
        "under Allocatable: overrides what the cluster's kind derives from the capacity; "
        "on an existing cluster, the only way to have CPU and memory checked.",
    )
    max_pods: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="ACK: the nodes' maximum pods (console: Nodes page; Terway: (ENIs - 1) x "
        "IPs per ENI + host-network pods; Flannel: chosen at cluster creation). ACK's "
        "memory reservation on Kubernetes 1.28 and later grows with it.",
    )
    eviction_threshold: Quantity | None = Field(
        default=None,
        description="ACK: memory the kubelet keeps free before it evicts pods (its "
        "`memory.available` hard threshold), subtracted from the allocatable. Unset: 300Mi, "
        "inferred from ACK's own example (its documentation gives none; the plan says so).",
    )
    desired_size: int = Field(
        ge=0,
        le=1000,
        description="Number of nodes. With autoscaling on, the size the pool starts at.",
    )
    autoscaling: Autoscaling | None = Field(
        default=None, description="Autoscaling bounds; unset means a fixed-size pool."
    )
    labels: dict[LabelKey, LabelValue] = Field(
        default_factory=dict,
        description="Labels on every node of the pool; the roles placed on the pool select them.",
    )
    taints: list[Taint] = Field(
        description="Taints on every node; the roles placed on the pool get matching "
        "tolerations. Default: `nvidia.com/gpu=true:NoSchedule` on a GPU pool, none on a "
        "CPU pool."
    )
    system_disk: SystemDisk | None = Field(
        default=None, description="System disk of each created node (ACK only)."
    )
    login: Login | None = Field(
        default=None,
        description="ACK only, required there: a key pair name or a secret password key.",
    )
    nodes: list[NodeName] = Field(
        default_factory=list,
        description="Existing clusters only: names of the nodes to label (and taint, see "
        "taintPolicy). Empty: nodes are left as they are and the pool is only described.",
    )
    taint_policy: Literal["apply", "force", "none"] = Field(
        default="apply",
        description="Existing clusters only, how `nodes` get the pool's taints. Kubernetes "
        "keeps a node's taints as one atomic list, owned by one field manager: `apply` "
        "sets the whole list by server-side apply without force, so taints another manager "
        "set make `pulumi up` fail instead of being replaced; `force` takes the list over "
        "and removes other managers' taints (a plan warning says so); `none` leaves taints "
        "alone (they only describe the nodes).",
    )

    @model_validator(mode="before")
    @classmethod
    def _default_taints(cls, data: Any) -> Any:
        # The GPU taint is a GPU pool's default only: a CPU pool is where untolerating pods go.
        if isinstance(data, dict) and "taints" not in data:
            gpus = data.get("gpusPerNode")
            taints = [dict(GPU_TAINT)] if isinstance(gpus, int) and gpus > 0 else []
            return {**data, "taints": taints}
        return data

    @model_validator(mode="after")
    def _gpu_model_iff_gpus(self) -> NodePool:
        if self.gpus_per_node and self.gpu_model is None:
            raise constraint("gpuModel", None, "the GPU model of a GPU pool, e.g. V100")
        if not self.gpus_per_node and self.gpu_model is not None:
            raise constraint("gpuModel", self.gpu_model, "nothing on a CPU pool (gpusPerNode: 0)")
        driver, model = self.nvidia_driver, self.gpu_model
        if driver is not None and model is None:
            raise constraint("nvidiaDriver", driver, "nothing on a CPU pool (gpusPerNode: 0)")
        if driver is not None and (allowed := unsupported_driver(model or "", driver)):
            raise constraint("nvidiaDriver", driver, allowed, ("gpuModel",))
        return self

    @model_validator(mode="after")
    def _sizes(self) -> NodePool:
        scaling = self.autoscaling
        if scaling is not None and scaling.enabled:
            if not scaling.min_size <= self.desired_size <= scaling.max_size:
                raise constraint(
                    "desiredSize",
                    self.desired_size,
                    f"between autoscaling.minSize ({scaling.min_size}) and "
                    f"autoscaling.maxSize ({scaling.max_size})",
                )
        if self.nodes and len(self.nodes) != self.desired_size:
            raise constraint(
                "desiredSize", self.desired_size, f"the number of nodes listed ({len(self.nodes)})"
            )
        if len(set(self.nodes)) != len(self.nodes):
            raise constraint("nodes", self.nodes, "each node name once")
        return self

    @property
    def is_gpu(self) -> bool:
        """A pool of GPU nodes (training roles with GPUs go there)."""
        return self.gpus_per_node > 0

    @property
    def scaling(self) -> Autoscaling | None:
        """The autoscaling bounds when autoscaling is on."""
        return self.autoscaling if self.autoscaling and self.autoscaling.enabled else None

    @property
    def max_nodes(self) -> int:
        """The most nodes the pool can have (what a job can count on at best)."""
        return self.scaling.max_size if self.scaling else self.desired_size

    @property
    def gpu_capacity(self) -> int:
        """GPUs of the pool at its largest."""
        return self.max_nodes * self.gpus_per_node

    @property
    def cpu_capacity(self) -> Decimal | None:
        """CPU of one node as its instance has it (capacity), when declared."""
        return None if self.cpu_per_node is None else parse_quantity(self.cpu_per_node)

    @property
    def memory_capacity(self) -> Decimal | None:
        """Memory of one node in bytes as its instance has it (capacity), when declared."""
        return None if self.memory_per_node is None else parse_quantity(self.memory_per_node)

    @property
    def tolerations(self) -> list[dict[str, str]]:
        """What a pod needs to tolerate to run on the pool."""
        return [taint.toleration() for taint in self.taints]

    def describe(self) -> str:
        """``4 node(s) x 4 V100 = 16 GPUs`` or ``2 node(s), CPU only``."""
        size = f"{self.max_nodes} node(s)"
        if self.scaling:
            size += f" (autoscaling {self.scaling.min_size}-{self.scaling.max_size})"
        if not self.is_gpu:
            return f"{size}, CPU only"
        return f"{size} x {self.gpus_per_node} {self.gpu_model} = {self.gpu_capacity} GPUs"
