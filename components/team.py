"""Team: a team's namespace on a shared cluster, its quota, defaults, and who may work there."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from trainstack.config.node_pool import GPU_RESOURCE
from trainstack.config.teams import Amounts
from trainstack.config.teams import Team as TeamConfig
from trainstack.core.names import MANAGED_BY
from trainstack.core.quantity import exact_quantity
from trainstack.training_job.frameworks import frameworks

# The resources of the jobs the training-job chart renders (one per framework), by API group.
TRAINING_JOBS: dict[str, list[str]] = {}
for _spec in frameworks():
    TRAINING_JOBS.setdefault(_spec.group, []).append(_spec.plural)
PSA_LABEL = "pod-security.kubernetes.io"


@dataclass(frozen=True)
class TeamArgs:
    """The team, the most its pods may hold at once, and the cluster's provider.

    ``ceiling`` is the team's quota, or with queueing in a cohort its quota plus what it
    may borrow (see :func:`trainstack.config.teams.reach`): Kueue admits by that, so the
    ResourceQuota must not refuse the pods of a job Kueue admitted.
    """

    team: TeamConfig
    ceiling: Amounts
    kubernetes: k8s.Provider
    queueing: bool = False


class Team(pulumi.ComponentResource):
    """Namespace, ResourceQuota, LimitRange and namespaced RBAC of one team.

    - The Namespace enforces a Pod Security Admission level (``baseline`` unless the team
      may run host-networked or privileged pods) and warns and audits against
      ``restricted``.
    - The ResourceQuota caps GPUs, CPU and memory requests, memory limits (memory
      over-commit kills jobs) and, when set, pods.
    - The LimitRange gives containers that set nothing the team's defaults.
    - Members get the built-in ``edit`` ClusterRole, bound in this namespace only, and a
      Role for the training jobs (``edit`` does not cover custom resources). Nothing is
      bound cluster-wide.
    """

    namespace: pulumi.Output[str]

    def __init__(
        self, name: str, args: TeamArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:teams:Team", name, None, opts)
        team = args.team
        namespace_name = team.namespace_name
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        namespace = k8s.core.v1.Namespace(
            f"{name}-namespace",
            metadata=k8s.meta.v1.ObjectMetaArgs(
                name=namespace_name, labels=_namespace_labels(team)
            ),
            opts=in_cluster,
        )
        inside = pulumi.ResourceOptions.merge(
            in_cluster, pulumi.ResourceOptions(depends_on=[namespace])
        )
        k8s.core.v1.ResourceQuota(
            f"{name}-quota",
            metadata=_metadata("trainstack-quota", team),
            spec=k8s.core.v1.ResourceQuotaSpecArgs(hard=_hard(args.ceiling)),
            opts=inside,
        )
        if not team.container_defaults.empty:
            k8s.core.v1.LimitRange(
                f"{name}-defaults",
                metadata=_metadata("trainstack-defaults", team),
                spec=k8s.core.v1.LimitRangeSpecArgs(limits=[_limit_range_item(team)]),
                opts=inside,
            )
        _bindings(name, team, args.queueing, inside)
        self.namespace = namespace.metadata.apply(lambda meta: meta.name or namespace_name)
        self.register_outputs({"namespace": self.namespace})


def _bindings(name: str, team: TeamConfig, queueing: bool, opts: pulumi.ResourceOptions) -> None:
    """The members' ``edit`` in the namespace, and a Role for the training jobs (none without
    members)."""
    subjects = _subjects(team)
    if not subjects:
        return
    k8s.rbac.v1.RoleBinding(
        f"{name}-edit",
        metadata=_metadata("trainstack-edit", team),
        role_ref=k8s.rbac.v1.RoleRefArgs(
            api_group="rbac.authorization.k8s.io", kind="ClusterRole", name="edit"
        ),
        subjects=subjects,
        opts=opts,
    )
    role = k8s.rbac.v1.Role(
        f"{name}-training-jobs",
        metadata=_metadata("trainstack-training-jobs", team),
        rules=_training_rules(queueing),
        opts=opts,
    )
    k8s.rbac.v1.RoleBinding(
        f"{name}-training-jobs-binding",
        metadata=_metadata("trainstack-training-jobs", team),
        role_ref=k8s.rbac.v1.RoleRefArgs(
            api_group="rbac.authorization.k8s.io",
            kind="Role",
            name="trainstack-training-jobs",
        ),
        subjects=subjects,
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=[role])),
    )


def _labels(team: TeamConfig) -> dict[str, str]:
    return {**MANAGED_BY, "trainstack.io/team": team.name}


def _namespace_labels(team: TeamConfig) -> dict[str, str]:
    # enforce refuses pods; warn shows kubectl/Helm users what restricted would refuse;
    # audit records it. No -version labels: the policy follows the cluster's version.
    return {
        **_labels(team),
        f"{PSA_LABEL}/enforce": team.pod_security,
        f"{PSA_LABEL}/warn": "restricted",
        f"{PSA_LABEL}/audit": "restricted",
    }


def _metadata(object_name: str, team: TeamConfig) -> k8s.meta.v1.ObjectMetaArgs:
    return k8s.meta.v1.ObjectMetaArgs(
        name=object_name, namespace=team.namespace_name, labels=_labels(team)
    )


def _hard(ceiling: Amounts) -> dict[str, str]:
    # Extended resources (GPUs) can only be capped on requests: they are never over-committed.
    # CPU limits are left free: CPU over-use only throttles, while memory over-use kills.
    memory = exact_quantity(ceiling.memory, binary=True)
    hard = {
        f"requests.{GPU_RESOURCE}": str(ceiling.gpu),
        "requests.cpu": exact_quantity(ceiling.cpu, binary=False),
        "requests.memory": memory,
        "limits.memory": memory,
    }
    if ceiling.pods is not None:
        hard["pods"] = str(ceiling.pods)
    return hard


def _limit_range_item(team: TeamConfig) -> k8s.core.v1.LimitRangeItemArgs:
    defaults = team.container_defaults

    def amounts(source: object) -> dict[str, str] | None:
        values = {
            resource: getattr(source, resource)
            for resource in ("cpu", "memory")
            if getattr(source, resource) is not None
        }
        return values or None

    return k8s.core.v1.LimitRangeItemArgs(
        type="Container",
        default=amounts(defaults.limits),
        default_request=amounts(defaults.requests),
    )


def _subjects(team: TeamConfig) -> list[k8s.rbac.v1.SubjectArgs]:
    group = "rbac.authorization.k8s.io"
    users = [
        k8s.rbac.v1.SubjectArgs(kind="User", name=user, api_group=group)
        for user in team.members.users
    ]
    groups = [
        k8s.rbac.v1.SubjectArgs(kind="Group", name=name, api_group=group)
        for name in team.members.groups
    ]
    return users + groups


def _training_rules(queueing: bool) -> list[k8s.rbac.v1.PolicyRuleArgs]:
    rules = []
    for group, resources in sorted(TRAINING_JOBS.items()):
        rules += [
            k8s.rbac.v1.PolicyRuleArgs(
                api_groups=[group],
                resources=resources,
                verbs=["get", "list", "watch", "create", "update", "patch", "delete"],
            ),
            k8s.rbac.v1.PolicyRuleArgs(
                api_groups=[group],
                resources=[f"{resource}/status" for resource in resources],
                verbs=["get"],
            ),
        ]
    if queueing:
        # Members see their queue and their jobs' place in it, and change nothing of Kueue's.
        rules.append(
            k8s.rbac.v1.PolicyRuleArgs(
                api_groups=["kueue.x-k8s.io"],
                resources=["localqueues", "workloads"],
                verbs=["get", "list", "watch"],
            )
        )
    return rules
