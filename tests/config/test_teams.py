"""Teams and queueing in the stack configuration: every invalid value names its key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from tests.team_helpers import example_teams, team, without_queueing
from trainstack.config.teams import Amounts
from trainstack.core.errors import ConfigError
from trainstack.core.quantity import parse_quantity

Change = Callable[[dict[str, Any]], None]


def _teams(change: Change) -> dict[str, Any]:
    config = example_config("aiacc")
    change(config)
    return config


def _set(path: str, value: Any, index: int = 0) -> Change:
    """Set ``a.b.c`` of teams[index] (creating mappings on the way)."""

    def change(config: dict[str, Any]) -> None:
        node = config["trainstack:teams"][index]
        *parents, last = path.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value

    return change


def _no_queueing(change: Change) -> Change:
    def both(config: dict[str, Any]) -> None:
        without_queueing(config)
        change(config)

    return both


@pytest.mark.parametrize(
    ("change", "path", "found", "allowed"),
    [
        (
            _set("name", "vision", index=1),
            "trainstack:teams[1].name",
            '"vision"',
            "a name no other team uses (teams[0] has it)",
        ),
        (
            _set("namespace", "vision", index=1),
            "trainstack:teams[1].namespace",
            '"vision"',
            "a namespace of its own (teams[0] works in it): quotas and bindings are per namespace",
        ),
        (
            _set("namespace", "default"),
            "trainstack:teams[0].namespace",
            '"default"',
            "a namespace other than the cluster's own namespaces: the team's Pod Security "
            "level and quota would apply there too",
        ),
        (
            _set("namespace", "kubeflow"),
            "trainstack:teams[0].namespace",
            '"kubeflow"',
            "a namespace other than operators.trainingOperator (Kubeflow training-operator v1 "
            "1.9.4)'s namespace: the team's Pod Security level and quota would apply there too",
        ),
        (
            _set("namespace", "kueue-system"),
            "trainstack:teams[0].namespace",
            '"kueue-system"',
            "a namespace other than Kueue's namespace: the team's Pod Security level and "
            "quota would apply there too",
        ),
        (
            _set("name", "Vision"),
            "trainstack:teams[0].name",
            '"Vision"',
            "a DNS label: lowercase letters, digits and '-', starting and ending with a "
            "letter or digit",
        ),
        (_set("quota.gpu", -1), "trainstack:teams[0].quota.gpu", "-1", "a number >= 0"),
        (
            _set("quota.cpu", "-4"),
            "trainstack:teams[0].quota.cpu",
            '"-4"',
            "a string matching ^[0-9]+(\\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$",
        ),
        (_set("quota.pods", -1), "trainstack:teams[0].quota.pods", "-1", "a number >= 0"),
        (
            _set("quota.memory", None),
            "trainstack:teams[0].quota.memory",
            "null",
            "a string",
        ),
        (
            _set("containerDefaults.requests.memory", "64Gi"),
            "trainstack:teams[0].containerDefaults.requests.memory",
            '"64Gi"',
            "at most limits.memory (48Gi)",
        ),
        (
            _set("containerDefaults.limits.memory", "1Ti"),
            "trainstack:teams[0].containerDefaults.limits.memory",
            '"1Ti"',
            "at most quota.memory (900Gi): one container could use the whole share",
        ),
        (
            _set("podSecurity", "restricted"),
            "trainstack:teams[0].podSecurity",
            '"restricted"',
            "one of 'baseline' or 'privileged'",
        ),
        (
            _set("members.users", ["alice", "alice"]),
            "trainstack:teams[0].members.users",
            '["alice"]',
            "each name once",
        ),
        (
            _set("members.groups", ["vision researchers"]),
            "trainstack:teams[0].members.groups[0]",
            '"vision researchers"',
            "text without spaces",
        ),
        (
            _set("quota.gpuModels", {"V100": 12}),
            "trainstack:teams[0].quota.gpuModels.V100",
            "12",
            "at most gpu (10)",
        ),
        (
            _set("quota.gpuModels", {"A100": 4}),
            "trainstack:teams[0].quota.gpuModels.A100",
            '"A100"',
            "a GPU model of the stack's node pools: V100",
        ),
        (
            _no_queueing(_set("quota.gpuModels", {"V100": 4})),
            "trainstack:teams[0].quota.gpuModels",
            '{"V100": 4}',
            "nothing without queueing (a ResourceQuota cannot tell GPU models apart); set "
            "trainstack:queueing.enabled: true",
        ),
        (
            _no_queueing(_set("borrowingLimit", {"gpu": 2})),
            "trainstack:teams[0].borrowingLimit",
            '{"gpu": 2}',
            "nothing unless trainstack:queueing is enabled with a cohort (only teams of a "
            "cohort borrow)",
        ),
        (
            _set("quotas", {}),
            "trainstack:teams[0].quotas",
            'unknown key "quotas" (did you mean "quota"?)',
            "one of the known keys: borrowingLimit, containerDefaults, description, members, "
            "name, namespace, podSecurity, quota",
        ),
    ],
)
def test_invalid_team(load: Loader, change: Change, path: str, found: str, allowed: str) -> None:
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(_teams(change))
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


@pytest.mark.parametrize(
    ("queueing", "path", "found", "allowed"),
    [
        (
            {"enabled": True, "values": {"managerConfig": {"controllerManagerConfigYaml": "x"}}},
            "trainstack:queueing.values.managerConfig.controllerManagerConfigYaml",
            '"a Kueue configuration"',
            "nothing: trainstack writes it (integrations, waitForPodsReady); use the other "
            "settings of trainstack:queueing",
        ),
        (
            {"enabled": True, "podsReadyTimeout": "10 minutes"},
            "trainstack:queueing.podsReadyTimeout",
            '"10 minutes"',
            "a string matching ^[1-9][0-9]*(s|m|h)$",
        ),
        (
            {"enabled": True, "reclaimWithinCohort": "Always"},
            "trainstack:queueing.reclaimWithinCohort",
            '"Always"',
            "one of 'Never', 'LowerPriority' or 'Any'",
        ),
        (
            {"enabled": True, "chart": {"repo": "oci://x", "name": "kueue", "version": "^0.16"}},
            "trainstack:queueing.chart.version",
            '"^0.16"',
            "an exact version such as 0.6.0 (no range, no `latest`)",
        ),
    ],
)
def test_invalid_queueing(
    load: Loader, queueing: dict[str, Any], path: str, found: str, allowed: str
) -> None:
    config = example_config("aiacc")
    config["trainstack:queueing"] = queueing
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(config)
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


def test_queueing_needs_a_team(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:teams"]
    with pytest.raises(ConfigError, match=r"trainstack:queueing\.enabled: found true") as caught:
        load(config)
    assert caught.value.problems[0].allowed == "false, or at least one team in trainstack:teams"


def test_teams_are_optional(load: Loader) -> None:
    config = example_config("onprem")
    assert load(config).config.teams == []
    assert not load(config).config.queueing.enabled


def test_namespace_defaults_to_the_team_name(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:teams"][1]["namespace"] = "team-nlp"
    for dataset in config["trainstack:datasets"]:  # nlp's results claim moves with it
        if dataset["namespace"] == "nlp":
            dataset["namespace"] = "team-nlp"
    teams = load(config).config.teams
    assert [t.namespace_name for t in teams] == ["vision", "team-nlp"]


def test_borrowing_ceiling_is_the_quota_without_a_cohort(load: Loader) -> None:
    stack = load(without_queueing(example_config("aiacc"))).config
    vision = stack.teams[0]
    assert stack.share(vision) == Amounts(10, parse_quantity("118"), parse_quantity("900Gi"), 40)
    assert stack.borrowing_ceiling(vision) == stack.share(vision)


def test_borrowing_ceiling_adds_what_a_team_may_borrow_in_a_cohort(load: Loader) -> None:
    config = example_config("aiacc")
    stack = load(config).config
    # vision 10 GPUs + nlp's 6; 118 + 72 cores; 900Gi + 552Gi
    assert stack.borrowing_ceiling(stack.teams[0]) == Amounts(
        16, parse_quantity("190"), parse_quantity("1452Gi"), 40
    )
    config["trainstack:teams"] = [team("vision", borrowingLimit={"gpu": 2}), team("nlp")]
    limited = load(config).config
    assert limited.borrowing_ceiling(limited.teams[0]).gpu == 12
    # A per-model cap lowers the team's own share on the pool of that model.
    config["trainstack:teams"] = [team("vision"), team("nlp")]
    config["trainstack:teams"][0]["quota"]["gpuModels"] = {"V100": 8}
    capped = load(config).config
    assert capped.borrowing_ceiling(capped.teams[0]).gpu == 14


def test_example_teams_are_the_same_on_both_ack_stacks() -> None:
    assert example_config("baseline")["trainstack:teams"] == example_teams()


@pytest.mark.parametrize(
    ("shared", "path", "allowed"),
    [
        (
            ["vision"],
            "trainstack:datasets[0].sharedWith[0]",
            "a namespace not listed before and other than `namespace`",
        ),
        (
            ["nlp", "nlp"],
            "trainstack:datasets[0].sharedWith[1]",
            "a namespace not listed before and other than `namespace`",
        ),
    ],
)
def test_invalid_sharing(load: Loader, shared: list[str], path: str, allowed: str) -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["sharedWith"] = shared
    with pytest.raises(ConfigError, match="sharedWith") as caught:
        load(config)
    assert [(p.path, p.allowed) for p in caught.value.problems] == [(path, allowed)]


def test_shared_pv_names_do_not_collide(load: Loader) -> None:
    config = example_config("aiacc")
    dataset = config["trainstack:datasets"][0]
    other = {**dataset, "name": "imagenet-data-nlp", "namespace": "nlp"}
    dataset["sharedWith"] = ["nlp"]
    index = len(config["trainstack:datasets"])
    config["trainstack:datasets"].append(other)
    with pytest.raises(ConfigError, match="PV names are cluster-wide") as caught:
        load(config)
    assert caught.value.problems[0].path in (
        "trainstack:datasets[0].sharedWith",
        f"trainstack:datasets[{index}].sharedWith",
    )


def test_a_flavor_holds_eight_node_labels(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["labels"] = {f"example.com/label-{i}": "x" for i in range(9)}
    with pytest.raises(ConfigError, match=r"trainstack:nodePools\[0\]\.labels") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.found, problem.allowed) == (
        '"9 entries"',
        "at most 8 with queueing: the pool's Kueue ResourceFlavor holds 8",
    )


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("users", "system:anonymous"),
        ("groups", "system:unauthenticated"),
        ("groups", "system:authenticated"),
        ("groups", "system:serviceaccounts"),
        ("groups", "system:serviceaccounts:kube-system"),
    ],
)
def test_members_standing_for_everybody_are_refused(load: Loader, key: str, name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(_teams(_set(f"members.{key}", ["alice", name])))
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (f"trainstack:teams[0].members.{key}[1]", f'"{name}"')
    assert "members.allowBroadSubjects: true" in problem.allowed


def test_members_standing_for_everybody_need_the_teams_own_consent(load: Loader) -> None:
    def open_first_team(config: dict[str, Any]) -> None:
        _set("members.groups", ["system:authenticated"])(config)
        _set("members.allowBroadSubjects", True)(config)

    stack = load(_teams(open_first_team))
    assert stack.config.teams[0].members.groups == ["system:authenticated"]

    def open_both_teams(config: dict[str, Any]) -> None:
        open_first_team(config)
        _set("members.groups", ["system:authenticated"], index=1)(config)

    with pytest.raises(ConfigError, match=r"trainstack:teams\[1\]\.members\.groups\[0\]"):
        load(_teams(open_both_teams))


def test_one_service_account_is_a_member_like_any_user(load: Loader) -> None:
    stack = load(_teams(_set("members.users", ["system:serviceaccount:ci:deployer"])))
    assert stack.config.teams[0].members.users == ["system:serviceaccount:ci:deployer"]


def test_a_queueing_timeout_beyond_int64_nanoseconds_is_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:queueing"]["podsReadyTimeout"] = "2562048h"  # 2^63 ns is 2562047.8 h
    with pytest.raises(
        ConfigError, match=r"podsReadyTimeout: found \"2562048h\"; allowed: at most"
    ):
        load(config)
    config["trainstack:queueing"]["podsReadyTimeout"] = "2562047h"
    assert load(config).config.queueing.pods_ready_timeout == "2562047h"
    assert load(without_queueing(config)).config.node_pools[0].labels
