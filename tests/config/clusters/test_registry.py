"""The cluster kinds: one explicit list matching the stack model, and capabilities that
refuse, at validation, what a kind's cloud cannot do."""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.experiment_helpers import load as load_without_file
from tests.stack_helpers import REPO, example_config
from trainstack.config.clusters import alicloud, existing
from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.capabilities import CAPABILITIES, Capability
from trainstack.config.clusters.registry import (
    KINDS,
    Cluster,
    create_only_inputs,
    data_resources,
    identity_keys,
    offline_invokes,
)
from trainstack.config.data_sources import resolve_datasets
from trainstack.core.errors import ConfigError


def test_the_kinds_are_the_members_of_the_stack_model_in_order() -> None:
    members = typing.get_args(typing.get_args(Cluster)[0])
    tags = [typing.get_args(m.model_fields["provider"].annotation)[0] for m in members]
    assert tags == [k.provider for k in KINDS]
    assert [m.kind for m in members] == list(KINDS)
    assert all(k.capabilities <= set(CAPABILITIES) for k in KINDS)


@pytest.mark.parametrize(
    ("cluster", "path"),
    [
        ({"provider": "gke"}, "trainstack:cluster.provider"),
        (
            {
                "provider": "alicloud",
                "clusterId": "c5e1f8a2b7",
                "region": "cn-beijing",
                "vpcId": "vpc-abc",
                "vswitchIds": [],
            },
            "trainstack:cluster.vswitchIds",
        ),
        (
            {
                "provider": "alicloud",
                "clusterId": "cluster-1",
                "region": "cn-beijing",
                "vpcId": "vpc-abc",
                "vswitchIds": ["vsw-abc"],
            },
            "trainstack:cluster.clusterId",
        ),
    ],
)
def test_an_invalid_cluster_is_refused_at_its_key(load: Loader, cluster: dict, path: str) -> None:
    config = example_config("aiacc")
    config["trainstack:cluster"] = cluster
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert [p.path for p in caught.value.problems] == [path]


@pytest.fixture()
def without(monkeypatch: pytest.MonkeyPatch) -> Any:
    """ACK's kind without one capability: the rules must follow the capability, not the kind."""

    def remove(capability: Capability) -> None:
        lacking = alicloud.KIND.capabilities - {capability}
        reduced = dataclasses.replace(alicloud.KIND, capabilities=lacking)
        monkeypatch.setattr(alicloud.AlicloudCluster, "kind", reduced)

    return remove


ADDON = {"kind": "ack-addon", "name": "example-addon", "version": "1.0.0"}


@pytest.mark.parametrize(
    ("capability", "key", "value", "path", "found", "allowed"),
    [
        (
            "addons",
            "trainstack:operators",
            {"arena": {"version": "0.14.2"}},
            "trainstack:operators.arena.enabled",
            "true",
            "false on an ACK cluster: operators.arena (ACK ack-arena 0.14.2) is an ACK add-on",
        ),
        (
            "addons",
            "trainstack:acceleration",
            {"enabled": True, "component": ADDON},
            "trainstack:acceleration.component.kind",
            '"ack-addon"',
            "`helm` on an ACK cluster",
        ),
        (
            "nas",
            "trainstack:datasets",
            [
                {
                    "name": "scratch",
                    "capacity": "1Ti",
                    "source": {"type": "alicloud-nas", "create": {"zoneId": "cn-beijing-h"}},
                }
            ],
            "trainstack:datasets[0].source.create",
            '"a new NAS file system"',
            "`mountTargetDomain` of an existing NAS, or an `nfs` source, on an ACK cluster",
        ),
    ],
)
def test_a_setting_the_kind_cannot_serve_is_refused_at_validation(
    load: Loader,
    without: Any,
    capability: Capability,
    key: str,
    value: Any,
    path: str,
    found: str,
    allowed: str,
) -> None:
    config = example_config("aiacc")
    config[key] = value
    load(config)  # with the capability: accepted
    without(capability)
    with pytest.raises(ConfigError, match="Pulumi.test.yaml") as caught:
        load(config)
    assert [(p.path, p.found, p.allowed) for p in caught.value.problems] == [(path, found, allowed)]


def test_a_data_stack_needs_a_kind_with_data_stacks(without: Any) -> None:
    stack = load_without_file(example_config("aiacc"))
    without("data-stacks")
    with pytest.raises(ConfigError) as caught:
        resolve_datasets(stack, REPO / "stacks")
    first = caught.value.problems[0]
    assert (first.path, first.found) == ("trainstack:datasets[0].source.type", '"stack-reference"')
    assert first.allowed.startswith("`nfs` or an existing `alicloud-nas` mount target on an ACK")


def test_the_plan_and_the_diff_name_no_cloud() -> None:
    # Invoke answers, identity keys and data-bearing types come from the kinds.
    words = re.compile(r"alicloud|\bACK\b|clusterId", re.IGNORECASE)
    for package in ("plan", "diff"):
        for path in sorted((REPO / "trainstack" / package).glob("**/*.py")):
            found = words.findall(path.read_text(encoding="utf-8"))
            assert not found, f"{path.relative_to(REPO)} names {found}"


def test_the_kinds_facts_reach_the_plan_and_the_diff() -> None:
    assert offline_invokes()["alicloud:cs/getClusterCredential:getClusterCredential"] == {
        "kubeConfig": "[kubeconfig fetched from ACK at deploy time]"
    }
    assert identity_keys() == {
        "clusterId",
        "alicloud:cs/managedKubernetes:ManagedKubernetes#name",
    }
    assert set(data_resources()) == {
        "alicloud:cs/managedKubernetes:ManagedKubernetes",
        "alicloud:nas/fileSystem:FileSystem",
        "alicloud:nas/mountTarget:MountTarget",
    }


def test_the_inputs_read_at_creation_only_are_the_created_clusters() -> None:
    [(token, declared)] = create_only_inputs().items()
    assert token == "alicloud:cs/managedKubernetes:ManagedKubernetes"
    assert tuple(declared.remedies) == rules.CLUSTER_CREATE_ONLY
    assert declared.reason == "not applied to the running cluster: ACK reads it at creation only"
    # add-ons go on a running cluster one by one; the network needs a new cluster
    assert "alicloud.cs.KubernetesAddon" in declared.remedies["addons"]
    assert all(
        declared.remedies[name].startswith("only a new cluster is created with it")
        for name in rules.CLUSTER_CREATE_ONLY
        if name != "addons"
    )
    # an existing cluster is never created by the stack: nothing of it is read once
    assert existing.KIND.create_only_inputs == {}
