"""The rules between a stack's teams and the rest of it: names, namespaces, queueing.

Each team needs a name and a namespace of its own, never a namespace of the cluster or of
a release the stack installs; per-model GPU quotas and borrowing need queueing, and with
queueing the teams' quotas and Kueue's ResourceFlavors must fit the stack's pools.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from trainstack.config.acceleration import Acceleration, HelmComponent
from trainstack.config.capacity import NodeAllocatable
from trainstack.config.node_pool import NodePool
from trainstack.config.operators import Operators
from trainstack.config.queueing import Queueing
from trainstack.config.teams import RESERVED_NAMESPACES, Team, model_share
from trainstack.core.base_model import constraint


class StackConfig(Protocol):
    """What these rules read of a stack's configuration (config/stack.py's model, which
    calls them while it validates itself: a protocol, so that no import goes back up)."""

    @property
    def teams(self) -> Sequence[Team]: ...
    @property
    def queueing(self) -> Queueing: ...
    @property
    def node_pools(self) -> Sequence[NodePool]: ...
    @property
    def operators(self) -> Operators: ...
    @property
    def acceleration(self) -> Acceleration: ...
    def gpu_models(self) -> list[str]: ...
    def gpu_capacity_by_model(self) -> dict[str, int]: ...
    def allocatable(self, pool: NodePool) -> NodeAllocatable: ...


def team_rules(config: StackConfig) -> None:
    """Each team's name and namespace its own and no system's; with queueing, its flavors and
    GPU models fit the pools."""
    names: dict[str, int] = {}
    namespaces: dict[str, int] = {}
    system = _system_namespaces(config)
    for index, team in enumerate(config.teams):
        if team.name in names:
            raise constraint(
                f"teams[{index}].name",
                team.name,
                f"a name no other team uses (teams[{names[team.name]}] has it)",
            )
        names[team.name] = index
        namespace = team.namespace_name
        key = f"teams[{index}].namespace"
        if namespace in namespaces:
            raise constraint(
                key,
                namespace,
                f"a namespace of its own (teams[{namespaces[namespace]}] works in it): "
                "quotas and bindings are per namespace",
            )
        namespaces[namespace] = index
        if namespace in system:
            raise constraint(
                key,
                namespace,
                f"a namespace other than {system[namespace]}: the team's Pod Security "
                "level and quota would apply there too",
            )
        _queueing_rules(config, index, team)
    if config.queueing.enabled:
        if not config.teams:
            raise constraint(
                "queueing.enabled", True, "false, or at least one team in trainstack:teams"
            )
        _flavor_rules(config)


def _flavor_rules(config: StackConfig) -> None:
    """Kueue's limits on a flavor."""
    for index, pool in enumerate(config.node_pools):
        # A ResourceFlavor carries at most 8 node labels and 8 tolerations (Kueue's CRD).
        for field, items in (("labels", pool.labels), ("taints", pool.taints)):
            if len(items) > 8:
                raise constraint(
                    f"nodePools[{index}].{field}",
                    f"{len(items)} entries",
                    "at most 8 with queueing: the pool's Kueue ResourceFlavor holds 8",
                )
    # Whether the teams' quotas fit the pools: trainstack.checks.quota_room (a plan-time
    # check, reported with the experiments' errors in one round).


def _queueing_rules(config: StackConfig, index: int, team: Team) -> None:
    """Per-model quotas and borrowing only with queueing (and a cohort), within the pools."""
    queueing = config.queueing
    for model in sorted(team.quota.gpu_models):
        key = f"teams[{index}].quota.gpuModels"
        if not queueing.enabled:
            raise constraint(
                key,
                dict(team.quota.gpu_models),
                "nothing without queueing (a ResourceQuota cannot tell GPU models apart); "
                "set trainstack:queueing.enabled: true",
            )
        models = config.gpu_models()
        if model not in models:
            raise constraint(
                f"{key}.{model}",
                model,
                f"a GPU model of the stack's node pools: {', '.join(models) or 'none'}",
            )
    models = config.gpu_models()
    if queueing.enabled and len(models) > 1:
        # One flavor per GPU model: their quotas must not add up to more than the
        # team's total, or Kueue admits jobs its ResourceQuota then refuses.
        caps = {model: model_share(team, model) for model in models}
        if sum(caps.values()) > team.quota.gpu:
            raise constraint(
                f"teams[{index}].quota.gpuModels",
                caps,
                f"per-model GPU quotas adding up to at most quota.gpu ({team.quota.gpu}) "
                f"with several GPU models ({', '.join(models)}): Kueue admits by model, the "
                "ResourceQuota counts all GPUs together",
            )
    if team.borrowing_limit is not None and (not queueing.enabled or queueing.cohort is None):
        raise constraint(
            f"teams[{index}].borrowingLimit",
            team.borrowing_limit.model_dump(exclude_none=True),
            "nothing unless trainstack:queueing is enabled with a cohort (only teams "
            "of a cohort borrow)",
        )


def _system_namespaces(config: StackConfig) -> dict[str, str]:
    """Namespaces a team may not take, with why: the cluster's and the releases'."""
    taken = {namespace: "the cluster's own namespaces" for namespace in RESERVED_NAMESPACES}
    for operator in config.operators.enabled():
        taken[operator.release.install.namespace] = f"{operator.label}'s namespace"
    component = config.acceleration.component
    if config.acceleration.enabled and isinstance(component, HelmComponent):
        taken[component.namespace] = "the acceleration release's namespace"
    if config.queueing.enabled:
        taken[config.queueing.namespace] = "Kueue's namespace"
    return taken
