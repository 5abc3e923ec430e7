"""Team: from minimal arguments and in the example program, exactly a namespace, a quota, defaults
and namespaced bindings per team."""

from __future__ import annotations

import copy
from collections import Counter
from decimal import Decimal
from typing import Any

from components.team import Team, TeamArgs
from tests.components.mock_engine import Registered, build, provider, value
from tests.conformance import validate_objects
from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, ARENA, example_config
from tests.team_helpers import team, without_queueing
from trainstack.config.teams import Amounts
from trainstack.config.teams import Team as TeamConfig
from trainstack.plan.model import Plan, PlannedResource
from trainstack.plan.runner import plan_stack

NAMESPACE = "kubernetes:core/v1:Namespace"
QUOTA = "kubernetes:core/v1:ResourceQuota"
LIMIT_RANGE = "kubernetes:core/v1:LimitRange"
ROLE = "kubernetes:rbac.authorization.k8s.io/v1:Role"
BINDING = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
GIB = Decimal(2**30)
TEAM_KINDS = (NAMESPACE, QUOTA, LIMIT_RANGE, ROLE, BINDING)


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


def _of_team(plan: Plan, name: str) -> list[PlannedResource]:
    return [r for r in plan.resources if r.parent.endswith(f"trainstack:teams:Team::{name}")]


def _one(resources: list[PlannedResource], type_token: str) -> dict[str, Any]:
    (found,) = [r.inputs for r in resources if r.type == type_token]
    return found


def test_each_team_gets_exactly_its_objects(example_plans: dict[str, Plan]) -> None:
    for stack in ACK_STACKS:
        plan = example_plans[stack]
        for name in ("vision", "nlp"):
            resources = _of_team(plan, name)
            assert Counter(r.type for r in resources) == {
                NAMESPACE: 1,
                QUOTA: 1,
                LIMIT_RANGE: 1,
                ROLE: 1,
                BINDING: 2,
            }, (stack, name)
            for resource in resources:
                metadata = resource.inputs["metadata"]
                assert metadata.get("namespace", metadata["name"]) == name
                assert metadata["labels"]["trainstack.io/team"] == name
        # Every namespaced object of these kinds in the plan belongs to a team.
        owned = {r.urn for name in ("vision", "nlp") for r in _of_team(plan, name)}
        assert {r.urn for r in plan.resources if r.type in TEAM_KINDS} == owned


def test_nothing_is_granted_cluster_wide(example_plans: dict[str, Plan]) -> None:
    for plan in example_plans.values():
        types = {r.type for r in plan.resources}
        assert not {t for t in types if "ClusterRoleBinding" in t or "ClusterRole" in t}
        for resource in plan.of_type(BINDING):
            assert resource.inputs["metadata"]["namespace"] in ("vision", "nlp")


def test_pod_security_baseline_enforced_restricted_reported(
    example_plans: dict[str, Plan],
) -> None:
    labels = _one(_of_team(example_plans["aiacc"], "vision"), NAMESPACE)["metadata"]["labels"]
    assert {k: v for k, v in labels.items() if k.startswith("pod-security")} == {
        "pod-security.kubernetes.io/enforce": "baseline",
        "pod-security.kubernetes.io/warn": "restricted",
        "pod-security.kubernetes.io/audit": "restricted",
    }


def test_privileged_only_for_a_team_allowed_it(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:teams"] = [team("vision"), team("nlp", podSecurity="privileged")]
    config["trainstack:experiments"] = {"select": ["imagenet-tensorflow"]}
    plan = plan_stack(write_stack(config), "test")
    enforced = {
        name: _one(_of_team(plan, name), NAMESPACE)["metadata"]["labels"][
            "pod-security.kubernetes.io/enforce"
        ]
        for name in ("vision", "nlp")
    }
    assert enforced == {"vision": "baseline", "nlp": "privileged"}


def test_quota_caps_gpus_cpu_memory_and_pods(write_stack: StackWriter) -> None:
    config = without_queueing(example_config("aiacc"))
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    hard = _one(_of_team(plan, "vision"), QUOTA)["spec"]["hard"]
    assert hard == {
        "requests.nvidia.com/gpu": "10",
        "requests.cpu": "118",
        "requests.memory": "900Gi",
        "limits.memory": "900Gi",
        "pods": "40",
    }


def test_quota_leaves_room_for_borrowing_in_a_cohort(example_plans: dict[str, Plan]) -> None:
    # vision 10 + nlp 6 GPUs, 118 + 72 cores, 900Gi + 552Gi: Kueue may admit that much.
    hard = _one(_of_team(example_plans["aiacc"], "vision"), QUOTA)["spec"]["hard"]
    assert (hard["requests.nvidia.com/gpu"], hard["requests.cpu"], hard["limits.memory"]) == (
        "16",
        "190",
        "1452Gi",
    )


def test_a_team_with_a_job_kueue_cannot_hold_keeps_its_share(write_stack: StackWriter) -> None:
    # ack-arena's TFJob and PyTorchJob cannot suspend: they start outside Kueue, so nlp's
    # ResourceQuota stays at its share of 6 GPUs.
    config = example_config("aiacc")
    config["trainstack:operators"] = copy.deepcopy(ARENA)
    config["trainstack:experiments"] = {
        "select": ["tf-multiworker-mnist", "pytorch-ddp-mnist"],
        "overrides": {
            name: {"security": {"seccompProfile": None}}
            for name in ("tf-multiworker-mnist", "pytorch-ddp-mnist")
        },
    }
    plan = plan_stack(write_stack(config), "test")
    hard = _one(_of_team(plan, "nlp"), QUOTA)["spec"]["hard"]
    assert (hard["requests.nvidia.com/gpu"], hard["requests.cpu"], hard["limits.memory"]) == (
        "6",
        "72",
        "552Gi",
    )
    assert plan.enforcement["nlp"].by == "both"


def test_a_team_whose_jobs_are_all_queued_may_hold_what_it_borrows(
    example_plans: dict[str, Plan],
) -> None:
    # The example stacks serve TFJob and PyTorchJob with training-operator (runPolicy.suspend).
    for stack in ACK_STACKS:
        plan = example_plans[stack]
        hard = _one(_of_team(plan, "nlp"), QUOTA)["spec"]["hard"]
        # nlp 6 + vision's 10 GPUs, 72 + 118 cores.
        assert (hard["requests.nvidia.com/gpu"], hard["requests.cpu"]) == ("16", "190")
        assert plan.enforcement["nlp"].by == "Kueue"


def test_limit_range_holds_the_defaults(example_plans: dict[str, Plan]) -> None:
    spec = _one(_of_team(example_plans["aiacc"], "nlp"), LIMIT_RANGE)["spec"]
    assert spec == {
        "limits": [
            {
                "type": "Container",
                "default": {"cpu": "8", "memory": "32Gi"},
                "defaultRequest": {"cpu": "2", "memory": "8Gi"},
            }
        ]
    }


def test_members_get_edit_and_training_jobs_in_their_namespace(
    example_plans: dict[str, Plan],
) -> None:
    resources = _of_team(example_plans["aiacc"], "vision")
    bindings = {r["roleRef"]["name"]: r for r in (x.inputs for x in resources if x.type == BINDING)}
    assert set(bindings) == {"edit", "trainstack-training-jobs"}
    assert bindings["edit"]["roleRef"]["kind"] == "ClusterRole"
    assert bindings["trainstack-training-jobs"]["roleRef"]["kind"] == "Role"
    for binding in bindings.values():
        assert binding["subjects"] == [
            {"kind": "Group", "name": "vision-researchers", "apiGroup": "rbac.authorization.k8s.io"}
        ]
    rules = _one(resources, ROLE)["rules"]
    assert rules == [
        {
            "apiGroups": ["kubeflow.org"],
            "resources": ["mpijobs", "pytorchjobs", "tfjobs"],
            "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"],
        },
        {
            "apiGroups": ["kubeflow.org"],
            "resources": ["mpijobs/status", "pytorchjobs/status", "tfjobs/status"],
            "verbs": ["get"],
        },
        {
            "apiGroups": ["trainer.kubeflow.org"],
            "resources": ["trainjobs"],
            "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"],
        },
        {
            "apiGroups": ["trainer.kubeflow.org"],
            "resources": ["trainjobs/status"],
            "verbs": ["get"],
        },
        {
            "apiGroups": ["kueue.x-k8s.io"],
            "resources": ["localqueues", "workloads"],
            "verbs": ["get", "list", "watch"],
        },
    ]


def test_a_team_without_members_or_defaults_gets_no_bindings(write_stack: StackWriter) -> None:
    config = without_queueing(example_config("aiacc"))
    config["trainstack:teams"] = [
        team("vision", members={}, containerDefaults={}),
        team("nlp", members={"users": ["2701234567890123"]}),
    ]
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    assert Counter(r.type for r in _of_team(plan, "vision")) == {NAMESPACE: 1, QUOTA: 1}
    nlp = _of_team(plan, "nlp")
    role = _one(nlp, ROLE)
    assert [rule["apiGroups"] for rule in role["rules"]] == [
        ["kubeflow.org"],
        ["kubeflow.org"],
        ["trainer.kubeflow.org"],
        ["trainer.kubeflow.org"],
    ]
    for binding in (r.inputs for r in nlp if r.type == BINDING):
        assert binding["subjects"] == [
            {"kind": "User", "name": "2701234567890123", "apiGroup": "rbac.authorization.k8s.io"}
        ]


def test_team_objects_conform_to_kubernetes(example_plans: dict[str, Plan]) -> None:
    objects = [
        r.inputs
        for name in ("vision", "nlp")
        for r in _of_team(example_plans["aiacc"], name)
        if r.type in TEAM_KINDS
    ]
    assert validate_objects(objects) == 12


def test_claims_and_jobs_wait_for_their_team(
    write_stack: StackWriter, dependencies: dict[str, list[str]]
) -> None:
    config = example_config("aiacc")
    config["trainstack:experiments"] = {"select": ["imagenet-tensorflow", "pytorch-ddp-mnist"]}
    plan = plan_stack(write_stack(config), "test")

    def urn(type_token: str, name: str) -> str:
        (found,) = [r.urn for r in plan.resources if r.type == type_token and r.name == name]
        return found

    vision = {urn(NAMESPACE, "vision-namespace"), urn(QUOTA, "vision-quota")}
    vision.add(urn(LIMIT_RANGE, "vision-defaults"))
    nlp_namespace = urn(NAMESPACE, "nlp-namespace")
    local_queue = urn("kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue", "queueing-vision-local-queue")
    claim = dependencies[urn("kubernetes:core/v1:PersistentVolumeClaim", "imagenet-data-pvc")]
    assert vision <= set(claim)
    release = "kubernetes:helm.sh/v3:Release"
    imagenet = set(dependencies[urn(release, "imagenet-tensorflow-release")])
    assert vision | {local_queue} <= imagenet
    assert nlp_namespace not in imagenet
    # Queued: it waits for its own team and for the queues (Kueue with every LocalQueue).
    pytorch = set(dependencies[urn(release, "pytorch-ddp-mnist-release")])
    nlp_queue = urn("kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue", "queueing-nlp-local-queue")
    assert nlp_namespace in pytorch and nlp_queue in pytorch
    assert urn(NAMESPACE, "vision-namespace") not in pytorch
