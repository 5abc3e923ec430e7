"""Team, built from minimal arguments: a namespace, its quota, defaults and bindings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from components.team import Team, TeamArgs
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.config.teams import Amounts
from trainstack.config.teams import Team as TeamConfig

NAMESPACE = "kubernetes:core/v1:Namespace"
QUOTA = "kubernetes:core/v1:ResourceQuota"
LIMIT_RANGE = "kubernetes:core/v1:LimitRange"
ROLE = "kubernetes:rbac.authorization.k8s.io/v1:Role"
BINDING = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
GIB = Decimal(2**30)


def _team(**changes: Any) -> TeamConfig:
    return TeamConfig.model_validate(
        {"name": "vision", "quota": {"gpu": 8, "cpu": "64", "memory": "512Gi"}, **changes}
    )


def _build(team: TeamConfig, queueing: bool = False) -> tuple[Team, Registered]:
    ceiling = Amounts(8, Decimal(64), 512 * GIB)
    return build(lambda: Team("vision", TeamArgs(team, ceiling, provider(), queueing)))


def test_a_team_without_members_or_defaults_is_a_namespace_and_its_quota() -> None:
    made, registered = _build(_team())
    component = registered.one("trainstack:teams:Team")
    children = registered.children(component)
    assert {(r.type, r.name) for r in children} == {
        (NAMESPACE, "vision-namespace"),
        (QUOTA, "vision-quota"),
    }
    assert all(r.provider.startswith(registered.named("cluster").urn) for r in children)
    assert registered.one(QUOTA).inputs["spec"]["hard"] == {
        "requests.nvidia.com/gpu": "8",
        "requests.cpu": "64",
        "requests.memory": "512Gi",
        "limits.memory": "512Gi",
    }
    assert registered.one(QUOTA).depends_on == (registered.one(NAMESPACE).urn,)
    assert value(made.namespace) == "vision"


def test_the_namespace_enforces_its_pod_security_level_and_reports_restricted() -> None:
    _, registered = _build(_team(podSecurity="privileged"))
    labels = registered.one(NAMESPACE).inputs["metadata"]["labels"]
    assert labels == {
        "app.kubernetes.io/managed-by": "trainstack",
        "trainstack.io/team": "vision",
        "pod-security.kubernetes.io/enforce": "privileged",
        "pod-security.kubernetes.io/warn": "restricted",
        "pod-security.kubernetes.io/audit": "restricted",
    }


def test_the_ceiling_caps_the_quota_and_pods_only_when_counted() -> None:
    ceiling = Amounts(12, Decimal("0.5"), 768 * GIB, pods=20)
    _, registered = build(lambda: Team("vision", TeamArgs(_team(), ceiling, provider())))
    assert registered.one(QUOTA).inputs["spec"]["hard"] == {
        "requests.nvidia.com/gpu": "12",
        "requests.cpu": "500m",
        "requests.memory": "768Gi",
        "limits.memory": "768Gi",
        "pods": "20",
    }


def test_container_defaults_become_a_limit_range() -> None:
    defaults = {"requests": {"cpu": "2"}, "limits": {"memory": "32Gi"}}
    _, registered = _build(_team(containerDefaults=defaults))
    (item,) = registered.one(LIMIT_RANGE).inputs["spec"]["limits"]
    assert item == {
        "type": "Container",
        "default": {"memory": "32Gi"},
        "defaultRequest": {"cpu": "2"},
    }


def test_members_are_bound_in_the_namespace_only_and_see_the_queue_with_queueing() -> None:
    members = {"users": ["alice"], "groups": ["vision-researchers"]}
    _, registered = _build(_team(members=members), queueing=True)
    edit, jobs = registered.named("vision-edit"), registered.named("vision-training-jobs-binding")
    assert (edit.inputs["roleRef"]["kind"], edit.inputs["roleRef"]["name"]) == (
        "ClusterRole",
        "edit",
    )
    assert [s["name"] for s in edit.inputs["subjects"]] == ["alice", "vision-researchers"]
    assert jobs.inputs["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "Role",
        "name": "trainstack-training-jobs",
    }
    assert registered.one(ROLE).urn in jobs.depends_on
    for binding in (edit, jobs):
        assert binding.inputs["metadata"]["namespace"] == "vision"
    rules = registered.one(ROLE).inputs["rules"]
    assert rules[-1] == {
        "apiGroups": ["kueue.x-k8s.io"],
        "resources": ["localqueues", "workloads"],
        "verbs": ["get", "list", "watch"],
    }
    # the job kinds the chart renders, and only their status below them
    assert (rules[0]["apiGroups"], rules[0]["resources"]) == (
        ["kubeflow.org"],
        ["mpijobs", "pytorchjobs", "tfjobs"],
    )
    assert rules[1]["verbs"] == ["get"]


def test_without_queueing_members_see_nothing_of_kueue() -> None:
    _, registered = _build(_team(members={"groups": ["vision-researchers"]}))
    groups = {group for rule in registered.one(ROLE).inputs["rules"] for group in rule["apiGroups"]}
    assert "kueue.x-k8s.io" not in groups
