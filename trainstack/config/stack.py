"""The whole ``trainstack:`` configuration of one stack, with the rules that span sections."""

from __future__ import annotations

from pydantic import Field, PrivateAttr, model_validator

from trainstack.config.acceleration import Acceleration, AckAddon
from trainstack.config.capacity import NodeAllocatable, pool_allocatable
from trainstack.config.cluster_template import Template
from trainstack.config.clusters.registry import Cluster
from trainstack.config.compatibility import check_pairs
from trainstack.config.datasets import Dataset
from trainstack.config.experiments import StackExperiments
from trainstack.config.health import HealthSettings
from trainstack.config.node_pool import NodePool
from trainstack.config.operators import Operators
from trainstack.config.prices import CostSettings
from trainstack.config.queueing import Queueing
from trainstack.config.team_rules import team_rules
from trainstack.config.teams import Amounts, Team, nominal, reach
from trainstack.config.telemetry import Telemetry
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.project import CONFIG_NAMESPACE
from trainstack.core.warning_ids import StackAcknowledgement
from trainstack.operators.registry import family as operator_family


class StackConfig(StrictModel):
    """Everything a stack declares under the `trainstack:` config namespace."""

    cluster: Cluster = Field(description="The Kubernetes cluster the stack deploys to.")
    node_pools: list[NodePool] = Field(
        min_length=1,
        description="The node pools: GPU pools that train and, optionally, CPU pools for "
        "launchers, parameter servers and CPU-only jobs.",
    )
    datasets: list[Dataset] = Field(
        default_factory=list, description="Shared datasets, each exposed as a PV + PVC."
    )
    operators: Operators = Field(
        default_factory=lambda: Operators.model_validate({}),
        description="The training operators the stack installs, each from what its project "
        "publishes (release manifest, kustomize overlay, Helm chart or ACK add-on).",
    )
    acceleration: Acceleration = Field(
        default_factory=lambda: Acceleration.model_validate({}),
        description="The acceleration layer (AIACC); off unless enabled.",
    )
    experiments: StackExperiments = Field(
        default_factory=lambda: StackExperiments.model_validate({}),
        description="The experiments this stack runs and its overrides of them.",
    )
    teams: list[Team] = Field(
        default_factory=list,
        description="Teams sharing the cluster: a namespace, quota, defaults and members each.",
    )
    queueing: Queueing = Field(
        default_factory=lambda: Queueing.model_validate({}),
        description="Job queueing with Kueue (off unless enabled).",
    )
    cost: CostSettings = Field(
        default_factory=lambda: CostSettings.model_validate({}),
        description="What the stack's nodes cost: its currency, prices that add to or "
        "override the cluster kind's price list, and a budget (docs/cost.md).",
    )
    health: HealthSettings = Field(
        default_factory=lambda: HealthSettings.model_validate({}),
        description="What `trainstack health` runs on the GPU nodes, and its images.",
    )
    telemetry: Telemetry = Field(
        default_factory=lambda: Telemetry.model_validate({}),
        description="Where `results collect` reads each run's GPU telemetry (a Prometheus "
        "scraping NVIDIA's DCGM exporter); none: not collected.",
    )
    acknowledge: list[StackAcknowledgement] = Field(
        default_factory=list,
        max_length=256,
        description="Warnings this stack means, by id (for one experiment, or stack-wide), "
        "each with its reason: shown as acknowledged, not as warnings; one that matches no "
        "warning is itself a warning (staleAcknowledgement).",
    )

    _template: Template | None = PrivateAttr(default=None)
    """The cluster template the stack names: where its cluster and pool keys are written."""

    @model_validator(mode="after")
    def _pool_rules(self) -> StackConfig:
        names: dict[str, int] = {}
        for index, pool in enumerate(self.node_pools):
            key = f"nodePools[{index}]"
            if pool.name in names:
                raise constraint(
                    f"{key}.name",
                    pool.name,
                    f"a name no other pool uses (nodePools[{names[pool.name]}] has it)",
                )
            names[pool.name] = index
            self.cluster.check_pool(key, pool)
            pool_allocatable(self.cluster, pool, key)  # refuses what cannot be derived
        return self

    @model_validator(mode="after")
    def _capability_rules(self) -> StackConfig:
        """What needs a service of the cluster's cloud is refused where its kind lacks it."""
        cluster = self.cluster
        if not cluster.supports("addons"):
            for operator in self.operators.enabled():
                if operator_family(operator.key).ack_only:
                    raise constraint(
                        f"operators.{operator.key}.enabled",
                        True,
                        f"false on {cluster.label}: {operator.label} is an ACK add-on",
                    )
        component = self.acceleration.component
        if isinstance(component, AckAddon) and not cluster.supports("addons"):
            raise constraint(
                "acceleration.component.kind", "ack-addon", f"`helm` on {cluster.label}"
            )
        # The first dataset mounted through a CSI driver: the add-ons it needs, once.
        for index, dataset in enumerate(self.datasets):
            mount = cluster.mount(dataset.source)
            if mount is not None and mount.csi_driver is not None:
                cluster.check_mount(mount, f"datasets[{index}]")
                break
        for index, dataset in enumerate(self.datasets):
            need = dataset.source.needs()
            if need is not None and not cluster.supports(need.capability):
                raise constraint(
                    f"datasets[{index}].source.{need.key}",
                    need.found,
                    need.allowed.format(kind=cluster.label),
                )
        return self

    @model_validator(mode="after")
    def _priced_pools_exist(self) -> StackConfig:
        cost = self.cost
        if (cost.prices or cost.budget) and not (
            cost.currency or self.cluster.kind.prices.currency
        ):
            raise constraint(
                "cost.currency",
                None,
                f"the currency of the stack's prices, e.g. CNY or USD ({self.cluster.label} "
                "has no price list to take it from)",
            )
        names = [pool.name for pool in self.node_pools]
        for index, price in enumerate(self.cost.prices):
            if price.pool is not None and price.pool not in names:
                raise constraint(
                    f"cost.prices[{index}].pool", price.pool, f"a pool of the stack: {names}"
                )
        return self

    @model_validator(mode="after")
    def _releases_that_work_together(self) -> StackConfig:
        """The catalog's compatibility rules between the releases the stack installs."""
        check_pairs(self.operators, self.queueing)
        return self

    @model_validator(mode="after")
    def _unique_dataset_names(self) -> StackConfig:
        seen: set[str] = set()
        for index, dataset in enumerate(self.datasets):
            if dataset.name in seen:
                raise constraint(
                    f"datasets[{index}].name",
                    dataset.name,
                    "a name no other dataset uses (PV names are cluster-wide)",
                )
            seen.add(dataset.name)
        volumes: dict[str, str] = {}
        for index, dataset in enumerate(self.datasets):
            for namespace, volume in dataset.claims:
                if volume in volumes and volumes[volume] != dataset.name:
                    raise constraint(
                        f"datasets[{index}].sharedWith",
                        namespace,
                        f"a namespace whose PV name {volume!r} no other dataset uses "
                        f"(dataset {volumes[volume]!r} has it); PV names are cluster-wide",
                    )
                volumes[volume] = dataset.name
        return self

    @model_validator(mode="after")
    def _team_rules(self) -> StackConfig:
        team_rules(self)
        return self

    @model_validator(mode="after")
    def _claims_in_created_namespaces(self) -> StackConfig:
        """A claim needs its namespace: `default`, or a team's, which the stack creates."""
        created = {"default"} | {team.namespace_name for team in self.teams}
        for index, dataset in enumerate(self.datasets):
            keys = [("namespace", dataset.namespace)]
            keys += [(f"sharedWith[{i}]", ns) for i, ns in enumerate(dataset.shared_with)]
            for key, namespace in keys:
                if namespace not in created:
                    raise constraint(
                        f"datasets[{index}].{key}",
                        namespace,
                        f"a namespace that exists: default, or a team's namespace "
                        f"({', '.join(sorted(created - {'default'})) or 'no teams'}); "
                        "nothing creates this one, so the claim could never be created",
                    )
        return self

    def dataset(self, claim_name: str, namespace: str) -> Dataset | None:
        """The dataset with a PVC named ``claim_name`` in ``namespace``, if any."""
        for dataset in self.datasets:
            if dataset.name == claim_name and namespace in dataset.namespaces:
                return dataset
        return None

    def team(self, name: str) -> Team | None:
        """The team called ``name``, if any."""
        return next((team for team in self.teams if team.name == name), None)

    def team_in(self, namespace: str) -> Team | None:
        """The team working in ``namespace`` (its quota applies to every pod there)."""
        return next((team for team in self.teams if team.namespace_name == namespace), None)

    def share(self, team: Team) -> Amounts:
        """``team``'s own share on this stack's pools (its per-model caps applied)."""
        return nominal(team, self.gpu_models())

    def borrowing_ceiling(self, team: Team) -> Amounts:
        """The most ``team``'s pods may hold when Kueue lends it idle quota of the cohort."""
        queueing = self.queueing
        cohort = queueing.enabled and queueing.cohort is not None
        return reach(team, self.teams, self.gpu_models(), cohort)

    def gpu_models(self) -> list[str]:
        """The GPU models of the stack's GPU pools, in pool order, each once."""
        return list(dict.fromkeys(p.gpu_model for p in self.node_pools if p.gpu_model))

    def gpu_capacity_by_model(self) -> dict[str, int]:
        """GPUs of the stack's pools at their largest, per GPU model."""
        capacity: dict[str, int] = {}
        for pool in self.node_pools:
            if pool.gpu_model:
                capacity[pool.gpu_model] = capacity.get(pool.gpu_model, 0) + pool.gpu_capacity
        return capacity

    @property
    def gpu_pools(self) -> list[NodePool]:
        """The GPU pools, in declaration order (the first is the default for training)."""
        return [pool for pool in self.node_pools if pool.is_gpu]

    @property
    def cpu_pool(self) -> NodePool | None:
        """The first CPU pool: where roles without GPUs go (none: they are left unpinned)."""
        return next((pool for pool in self.node_pools if not pool.is_gpu), None)

    def pool(self, name: str) -> NodePool | None:
        """The pool called ``name``, if any."""
        return next((pool for pool in self.node_pools if pool.name == name), None)

    def allocatable(self, pool: NodePool) -> NodeAllocatable:
        """What pods can request on one node of ``pool``, and where it comes from."""
        return pool_allocatable(self.cluster, pool, self.pool_key(pool))

    def pool_key(self, pool: NodePool) -> str:
        """``nodePools[<index>]``: where ``pool`` is declared."""
        return f"nodePools[{self.node_pools.index(pool)}]"

    def shares(self, template: Template | None) -> StackConfig:
        """The stack, knowing the cluster template its cluster and pools come from."""
        self._template = template
        return self

    def written(self, key: str, source: str) -> tuple[str, str]:
        """``(file, key as written there)`` of one of the stack's keys
        (``nodePools[0].desiredSize``): the cluster template's when it sets the key,
        else ``source`` (the stack file's) with its ``trainstack:`` prefix."""
        bare = key.removeprefix(f"{CONFIG_NAMESPACE}:")
        if self._template is None:
            return source, f"{CONFIG_NAMESPACE}:{bare}"
        if self._template.sets(bare):
            return self._template.display, bare
        return source, self._template.stack_key(f"{CONFIG_NAMESPACE}:{bare}")

    def mention(self, key: str, source: str) -> str:
        """``FILE: KEY`` of one of the stack's keys where it is written, as messages name
        it; printed, it gains the key's line (:func:`trainstack.core.yaml.positions.
        locate_mentions`), which stays out of the message itself so that a moved line is
        no new message."""
        return ": ".join(self.written(key, source))

    def team_key(self, team: Team) -> str:
        """``teams[<index>]``: where ``team`` is declared."""
        return f"teams[{self.teams.index(team)}]"
