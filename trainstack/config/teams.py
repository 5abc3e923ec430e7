"""Teams sharing one cluster: a namespace each, a quota, container defaults, who may use it.

A team's ``quota`` becomes a ResourceQuota in its namespace (and, with queueing on, the
nominal quota of its Kueue ClusterQueue); ``containerDefaults`` become a LimitRange;
``members`` get edit rights in that namespace only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX
from trainstack.core.names import DnsLabel, Quantity
from trainstack.core.quantity import parse_quantity

# RBAC subject names are free-form (RAM user IDs on ACK, e-mails with OIDC): no spaces.
SubjectName = Annotated[str, StringConstraints(pattern=r"^\S+$", max_length=253)]

RESERVED_NAMESPACES = ("default", "kube-system", "kube-public", "kube-node-lease")
"""Namespaces a team may not take: the cluster's own, and the one everybody shares."""


# Subjects that stand for everybody, or for unknown callers: binding them gives the
# namespace to the whole cluster (Kubernetes RBAC docs, "Default roles and role
# bindings" and "Referring to subjects": system:anonymous is the user of unauthenticated
# requests; system:unauthenticated, system:authenticated and system:serviceaccounts are
# groups every such caller, every user or every service account belongs to;
# system:serviceaccounts:<namespace> is every service account of a namespace).
BROAD_SUBJECTS = (
    "system:anonymous",
    "system:unauthenticated",
    "system:authenticated",
    "system:serviceaccounts",
)
BROAD_SUBJECT_PREFIX = "system:serviceaccounts:"


def is_broad_subject(name: str) -> bool:
    """Whether binding ``name`` gives access to everybody, or to unknown callers."""
    return name in BROAD_SUBJECTS or name.startswith(BROAD_SUBJECT_PREFIX)


class Members(StrictModel):
    """Who works in the team's namespace (as the cluster's authenticator names them)."""

    users: list[SubjectName] = Field(
        default_factory=list,
        description="User names, e.g. RAM user IDs on ACK or e-mail addresses with OIDC.",
        examples=[["alice@example.com"]],
    )
    groups: list[SubjectName] = Field(
        default_factory=list,
        description="Group names, e.g. `vision-researchers`.",
        examples=[["vision-researchers"]],
    )

    allow_broad_subjects: bool = Field(
        default=False,
        description="Allow members that stand for everybody or for unknown callers "
        "(`system:anonymous`, `system:unauthenticated`, `system:authenticated`, "
        "`system:serviceaccounts`, `system:serviceaccounts:<namespace>`): they give the "
        "namespace to the whole cluster, so they are refused unless this is true.",
    )

    @model_validator(mode="after")
    def _each_once(self) -> Members:
        for key, names in (("users", self.users), ("groups", self.groups)):
            repeated = sorted({name for name in names if names.count(name) > 1})
            if repeated:
                raise constraint(key, repeated, "each name once")
            for index, name in enumerate(names):
                if is_broad_subject(name) and not self.allow_broad_subjects:
                    raise constraint(
                        f"{key}[{index}]",
                        name,
                        "a user or group of people: this subject stands for every caller "
                        "of its kind and would give them the namespace (set "
                        "members.allowBroadSubjects: true if that is really meant)",
                    )
        return self


class TeamQuota(StrictModel):
    """The team's share of the cluster: what all its pods may request together."""

    gpu: int = Field(
        ge=0,
        le=INT32_MAX,
        description="GPUs (`requests.nvidia.com/gpu` in the ResourceQuota; the nominal GPU "
        "quota of the team's ClusterQueue with queueing).",
    )
    cpu: Quantity = Field(
        description='CPU cores all pods may request together (`requests.cpu`), e.g. `"96"`.'
    )
    memory: Quantity = Field(
        description="Memory all pods may request together, and the most their limits may add "
        "up to (`requests.memory` and `limits.memory`: memory over-commit kills jobs), e.g. "
        "`736Gi`."
    )
    pods: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="Most pods at once (`pods`); unset: no pod count limit.",
    )
    gpu_models: dict[
        Annotated[str, StringConstraints(min_length=1, max_length=63)],
        Annotated[int, Field(ge=0, le=INT32_MAX)],
    ] = Field(
        default_factory=dict,
        description="Per GPU model (a node pool's `gpuModel`), the most GPUs of that model. "
        "Needs queueing: a ResourceQuota cannot tell GPU models apart, a Kueue "
        "ResourceFlavor per pool can.",
        examples=[{"V100": 8}],
    )

    @model_validator(mode="after")
    def _models_within_total(self) -> TeamQuota:
        for model, count in sorted(self.gpu_models.items()):
            if count > self.gpu:
                raise constraint(f"gpuModels.{model}", count, f"at most gpu ({self.gpu})")
        return self


class ResourceAmounts(StrictModel):
    """CPU and memory of one container."""

    cpu: Quantity | None = Field(default=None, description='CPU cores, e.g. `"2"` or `500m`.')
    memory: Quantity | None = Field(default=None, description="Memory, e.g. `8Gi`.")


class ContainerDefaults(StrictModel):
    """What a container that does not say gets (a LimitRange of type Container)."""

    requests: ResourceAmounts = Field(
        default_factory=ResourceAmounts,
        description="Default requests (`defaultRequest`); an unset one falls back to the "
        "default limit, as Kubernetes does.",
    )
    limits: ResourceAmounts = Field(
        default_factory=ResourceAmounts, description="Default limits (`default`)."
    )

    @model_validator(mode="after")
    def _requests_within_limits(self) -> ContainerDefaults:
        for resource in ("cpu", "memory"):
            request = getattr(self.requests, resource)
            limit = getattr(self.limits, resource)
            if request is not None and limit is not None:
                if parse_quantity(request) > parse_quantity(limit):
                    raise constraint(
                        f"requests.{resource}", request, f"at most limits.{resource} ({limit})"
                    )
        return self

    @property
    def empty(self) -> bool:
        """No default at all (no LimitRange is created)."""
        return all(
            getattr(amounts, resource) is None
            for amounts in (self.requests, self.limits)
            for resource in ("cpu", "memory")
        )

    def request(self, resource: str) -> Decimal | None:
        """The default request of ``resource``: ``defaultRequest``, else the default limit."""
        value = getattr(self.requests, resource) or getattr(self.limits, resource)
        return None if value is None else parse_quantity(value)

    def limit(self, resource: str) -> Decimal | None:
        """The default limit of ``resource``, when set."""
        value = getattr(self.limits, resource)
        return None if value is None else parse_quantity(value)


class BorrowingLimit(StrictModel):
    """How much a team may borrow from idle teams of the cohort (Kueue `borrowingLimit`)."""

    gpu: int | None = Field(
        default=None, ge=0, le=INT32_MAX, description="Most GPUs borrowed; unset: any."
    )
    cpu: Quantity | None = Field(default=None, description="Most CPU borrowed; unset: any.")
    memory: Quantity | None = Field(default=None, description="Most memory borrowed; unset: any.")


class Team(StrictModel):
    """One team of a shared cluster."""

    name: DnsLabel = Field(
        description="Team name: names its ClusterQueue and LocalQueue; experiments say "
        "`team: <name>`."
    )
    namespace: DnsLabel | None = Field(
        default=None, description="The team's namespace; unset: the team's name."
    )
    description: str | None = Field(default=None, description="Who the team is.")
    members: Members = Field(
        default_factory=Members,
        description="Who gets the built-in `edit` role and the training-job role in the "
        "namespace (nothing cluster-wide).",
    )
    quota: TeamQuota = Field(description="The team's share of GPUs, CPU, memory and pods.")
    container_defaults: ContainerDefaults = Field(
        default_factory=ContainerDefaults,
        description="Requests and limits of containers that set none (a LimitRange).",
    )
    pod_security: Literal["baseline", "privileged"] = Field(
        default="baseline",
        description="Pod Security Admission level enforced in the namespace: `baseline` "
        "refuses host networking, privileged containers, host paths and extra capabilities "
        "(RDMA's IPC_LOCK); `privileged` allows them (e.g. Horovod over RDMA on the host "
        "network). `restricted` is always reported as warnings.",
    )
    borrowing_limit: BorrowingLimit | None = Field(
        default=None,
        description="With queueing in a cohort: the most this team borrows from idle teams; "
        "unset: everything idle.",
    )

    @model_validator(mode="after")
    def _defaults_within_quota(self) -> Team:
        quota = {"cpu": parse_quantity(self.quota.cpu), "memory": parse_quantity(self.quota.memory)}
        defaults = self.container_defaults
        for kind, amounts in (("requests", defaults.requests), ("limits", defaults.limits)):
            for resource, total in quota.items():
                value = getattr(amounts, resource)
                if value is not None and parse_quantity(value) > total:
                    raise constraint(
                        f"containerDefaults.{kind}.{resource}",
                        value,
                        f"at most quota.{resource} ({getattr(self.quota, resource)}): one "
                        "container could use the whole share",
                    )
        return self

    @property
    def namespace_name(self) -> str:
        """The namespace the team works in."""
        return self.namespace or self.name


@dataclass(frozen=True)
class Amounts:
    """GPUs, CPU cores and memory bytes (and pods, when counted) of a quota or of pods."""

    gpu: int
    cpu: Decimal
    memory: Decimal
    pods: int | None = None


def model_share(team: Team, gpu_model: str) -> int:
    """The most GPUs of ``gpu_model`` the team may use: its per-model cap, else its quota."""
    quota = team.quota
    return min(quota.gpu, quota.gpu_models.get(gpu_model, quota.gpu))


def nominal(team: Team, gpu_models: Sequence[str]) -> Amounts:
    """The team's own share on pools of ``gpu_models`` (its per-model caps applied)."""
    quota = team.quota
    capped = sum(model_share(team, model) for model in gpu_models)
    gpu = min(quota.gpu, capped) if gpu_models else quota.gpu
    return Amounts(gpu, parse_quantity(quota.cpu), parse_quantity(quota.memory), quota.pods)


def reach(team: Team, teams: Sequence[Team], gpu_models: Sequence[str], cohort: bool) -> Amounts:
    """The most the team's pods can hold at once: its share, plus what it may borrow.

    Without a cohort that is the share. In a cohort a team may borrow what the others
    leave idle, up to its borrowing limit (unset: all of theirs).
    """
    own = nominal(team, gpu_models)
    if not cohort:
        return own
    others = [nominal(other, gpu_models) for other in teams if other.name != team.name]
    limit = team.borrowing_limit or BorrowingLimit()
    idle_gpu = sum(other.gpu for other in others)
    idle_cpu = sum((other.cpu for other in others), Decimal(0))
    idle_memory = sum((other.memory for other in others), Decimal(0))
    return Amounts(
        own.gpu + (idle_gpu if limit.gpu is None else min(limit.gpu, idle_gpu)),
        own.cpu + (idle_cpu if limit.cpu is None else min(parse_quantity(limit.cpu), idle_cpu)),
        own.memory
        + (idle_memory if limit.memory is None else min(parse_quantity(limit.memory), idle_memory)),
        own.pods,
    )
