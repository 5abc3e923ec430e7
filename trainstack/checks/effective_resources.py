"""What each pod of a job gets, after its namespace's LimitRange: the requests and limits the
API server stores, and where each comes from.

Kubernetes fills a container's CPU and memory in this order: a limit set without a request
is also its request; then the namespace's LimitRange gives a container without a limit its
``default``, without a request its ``defaultRequest`` (which is ``default`` when unset)
(https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/memory-default-namespace/,
https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/cpu-default-namespace/).
A team's ``containerDefaults`` is that LimitRange (``components/team.py``). GPUs are
requested and limited alike, as the chart renders them.

Arena's chart sets a CPU or memory request and limit only from ``--cpu`` / ``--memory``
(kubeflow/arena v0.15.5 e30882c1, charts/mpijob/templates/mpijob.yaml:230-272), which
``arenaSubmit`` jobs write as the role's resources: anything a LimitRange adds, Arena's job
did not have where its namespace had none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainstack.checks.pods import RolePods, role_pods
from trainstack.config.node_pool import GPU_RESOURCE
from trainstack.config.teams import Team
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.training_job import TrainingJob

RESOURCES = ("cpu", "memory")
ARENA_CHART = "kubeflow/arena v0.15.5 charts/mpijob/templates/mpijob.yaml:230-272"


@dataclass(frozen=True)
class Amount:
    """One request or limit and where it comes from."""

    value: str
    origin: str = "job"
    """``job`` (the experiment's), ``limit`` (its limit, as Kubernetes copies it) or
    ``default`` (the team's LimitRange)."""


@dataclass(frozen=True)
class RoleResources:
    """What each pod of one role gets."""

    role: str
    key: str
    """The role's key in the experiment (``job.worker``)."""
    replicas: int
    requests: dict[str, Amount] = field(default_factory=dict)
    limits: dict[str, Amount] = field(default_factory=dict)

    def added_limits(self) -> list[str]:
        """The resources whose limit the LimitRange adds."""
        return [name for name, amount in self.limits.items() if amount.origin == "default"]

    def as_json(self) -> dict[str, dict[str, str]]:
        """``{"requests": {"cpu": "4"}, "limits": {...}}``, for ``experiments.json``."""
        return {
            kind: {name: amount.value for name, amount in amounts.items()}
            for kind, amounts in (("requests", self.requests), ("limits", self.limits))
        }


def effective_resources(job: TrainingJob, team: Team | None) -> list[RoleResources]:
    """Every role of ``job`` that starts pods, with what the API server stores for it."""
    return [_role(role, team) for role in role_pods(job)]


def _role(role: RolePods, team: Team | None) -> RoleResources:
    found = RoleResources(role.role, role.key, role.replicas)
    defaults = None if team is None else team.container_defaults
    for name in RESOURCES:
        own_limit = getattr(role.resources.limits, name)
        own_request = getattr(role.resources.requests, name)
        if own_limit is not None:
            found.limits[name] = Amount(_shown(own_limit, name))
        elif defaults is not None and defaults.limit(name) is not None:
            found.limits[name] = Amount(_shown(getattr(defaults.limits, name), name), "default")
        if own_request is not None:
            found.requests[name] = Amount(_shown(own_request, name))
        elif own_limit is not None:
            found.requests[name] = Amount(_shown(own_limit, name), "limit")
        elif defaults is not None and defaults.request(name) is not None:
            value = getattr(defaults.requests, name) or getattr(defaults.limits, name)
            found.requests[name] = Amount(_shown(value, name), "default")
    if role.gpus:
        found.requests[GPU_RESOURCE] = found.limits[GPU_RESOURCE] = Amount(str(role.gpus))
    return found


def _shown(value: str, name: str) -> str:
    return format_quantity(parse_quantity(value), name == "memory")
