"""The ACK managed cluster a stack creates: its inputs against the provider's contract.

The reference schema directory describes no ``alicloud:cs/managedKubernetes:
ManagedKubernetes`` (only its token, under ``x-resourceTokens``), so its contract is read
from the installed pulumi_alicloud SDK's ``ManagedKubernetesArgs`` (see
``tests/contracts/pulumi_schema.py``); the provider's documented rules (its Terraform
schema, ACK's network planning rules it does not check) are the plan-time checks of
``trainstack/config/clusters/ack_create.py``, each refused here by one failing example.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any, get_args

import pytest

from tests.contracts.pulumi_schema import ProviderSchemas, schema_dir
from tests.experiment_helpers import load
from tests.stack_helpers import example_config, only
from trainstack.config.clusters import alicloud_rules as rules
from trainstack.config.clusters.ack_create import AckCreate, AckNetwork
from trainstack.core.errors import ConfigError
from trainstack.plan.model import Plan, PlannedResource

CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"


@pytest.fixture(scope="module")
def schemas() -> ProviderSchemas:
    return ProviderSchemas.load(schema_dir())


@pytest.fixture(scope="module")
def cluster(example_plans: dict[str, Plan]) -> PlannedResource:
    return only(example_plans["aiacc"], CLUSTER)


def _with(resource: PlannedResource, **inputs: Any) -> PlannedResource:
    changed = copy.deepcopy(resource.inputs)
    changed.update(inputs)
    return dataclasses.replace(resource, inputs=changed)


def test_the_contract_comes_from_the_installed_sdk(schemas: ProviderSchemas) -> None:
    contract = schemas.contract(CLUSTER)
    assert not isinstance(contract, str), contract
    # every input the component sets is one ManagedKubernetesArgs declares
    assert {"version", "clusterSpec", "vswitchIds", "podVswitchIds", "serviceCidr"} <= set(
        contract.properties
    )
    assert contract.properties["deletionProtection"] == {"type": "boolean"}
    addon = contract.properties["addons"]["items"]
    assert set(addon["properties"]) == {"name", "version", "config", "disabled"}


def test_the_created_clusters_follow_the_contract(
    schemas: ProviderSchemas, example_plans: dict[str, Plan]
) -> None:
    for stack in ("aiacc", "baseline"):
        resource = only(example_plans[stack], CLUSTER)
        assert schemas.check(resource) == []
        assert resource.inputs["deletionProtection"] is True


def test_the_diffs_inputs_are_the_providers(schemas: ProviderSchemas) -> None:
    # What replaces the cluster and what is read at creation only: inputs of
    # ManagedKubernetesArgs, never both (a replaced cluster is created with them).
    contract = schemas.contract(CLUSTER)
    assert not isinstance(contract, str), contract
    replacing, create_only = set(rules.CLUSTER_REPLACED_BY), set(rules.CLUSTER_CREATE_ONLY)
    assert replacing | create_only <= set(contract.properties)
    assert not replacing & create_only


@pytest.mark.parametrize(
    ("inputs", "path", "rule"),
    [
        ({"kubernetesVersion": "1.35"}, "kubernetesVersion", "unknown input"),
        ({"deletionProtection": "yes"}, "deletionProtection", "type"),
        (
            {"addons": [{"name": "csi-plugin", "enabled": True}]},
            "addons[0].enabled",
            "unknown property",
        ),
        ({"vswitchIds": "vsw-1"}, "vswitchIds", "type"),
    ],
)
def test_the_checker_refuses_what_the_provider_refuses(
    schemas: ProviderSchemas,
    cluster: PlannedResource,
    inputs: dict[str, Any],
    path: str,
    rule: str,
) -> None:
    violations = schemas.check(_with(cluster, **inputs))
    assert [(v.path, v.rule) for v in violations] == [(path, rule)]


def test_the_models_values_are_the_providers() -> None:
    specs = get_args(AckCreate.model_fields["cluster_spec"].annotation)
    assert specs == rules.CLUSTER_SPECS
    assert get_args(AckNetwork.model_fields["proxy_mode"].annotation) == rules.PROXY_MODES
    assert get_args(AckNetwork.model_fields["plugin"].annotation) == rules.NETWORK_PLUGINS


# --- each documented rule, with a failing example ---------------------------------------

Change = Callable[[dict[str, Any]], None]


def _create(key: str, value: Any) -> Change:
    def change(cluster: dict[str, Any]) -> None:
        target = cluster["create"]
        *parents, last = key.split(".")
        for parent in parents:
            target = target[parent]
        target[last] = value

    return change


def _flannel(**extra: Any) -> Change:
    def change(cluster: dict[str, Any]) -> None:
        network = {"plugin": "flannel", "serviceCidr": "172.21.0.0/20", **extra}
        cluster["create"]["network"] = network

    return change


def _both(cluster: dict[str, Any]) -> None:
    cluster["clusterId"] = "c0123456789"


def _neither(cluster: dict[str, Any]) -> None:
    del cluster["create"]


def _six_vswitches(cluster: dict[str, Any]) -> None:
    cluster["vswitchIds"] = [f"vsw-{n}" for n in range(6)]


def _other_minor(cluster: dict[str, Any]) -> None:
    cluster["create"]["version"] = "1.36.1-aliyun.1"  # kubernetesVersion stays 1.35


RULES: list[tuple[str, Change, str, str]] = [
    ("one of clusterId and create", _both, "trainstack:cluster.clusterId", "exactly one of"),
    ("one of clusterId and create", _neither, "trainstack:cluster.clusterId", "exactly one of"),
    ("vswitch_ids: 1-5 items", _six_vswitches, "trainstack:cluster.vswitchIds", "1 to 5"),
    ("version format", _create("version", "1.35"), "trainstack:cluster.create.version", "match"),
    (
        "minors ACK creates",
        _create("version", "1.34.3-aliyun.1"),
        "trainstack:cluster.create.version",
        "1.35, 1.36",
    ),
    (
        "kubernetesVersion is the created minor",
        _other_minor,
        "trainstack:cluster.kubernetesVersion",
        "the minor of create.version",
    ),
    (
        "cluster_spec values",
        _create("clusterSpec", "ack.pro.medium"),
        "trainstack:cluster.create.clusterSpec",
        "ack.pro.small",
    ),
    ("name: 1-63", _create("name", "n" * 64), "trainstack:cluster.create.name", "1 to 63"),
    (
        "temporary_duration_minutes: 15-4320",
        _create("kubeconfigMinutes", 10),
        "trainstack:cluster.create.kubeconfigMinutes",
        "15 to 4320",
    ),
    (
        "proxy_mode values",
        _create("network.proxyMode", "userspace"),
        "trainstack:cluster.create.network.proxyMode",
        "ipvs",
    ),
    (
        "service CIDR: a private block",
        _create("network.serviceCidr", "8.8.0.0/20"),
        "trainstack:cluster.create.network.serviceCidr",
        "10.0.0.0/8",
    ),
    (
        "service CIDR: a network address",
        _create("network.serviceCidr", "172.21.0.1/20"),
        "trainstack:cluster.create.network.serviceCidr",
        "no host bits",
    ),
    (
        "service CIDR outside the VPC",
        _create("network.vpcCidr", "172.16.0.0/12"),
        "trainstack:cluster.create.network.serviceCidr",
        "outside the VPC",
    ),
    (
        "Terway needs pod vSwitches",
        _create("network.podVswitchIds", []),
        "trainstack:cluster.create.network.podVswitchIds",
        "at least one vSwitch",
    ),
    (
        "pod CIDR is Flannel's",
        _create("network.podCidr", "172.20.0.0/16"),
        "trainstack:cluster.create.network.podCidr",
        "nothing with terway-eniip",
    ),
    (
        "Flannel needs a pod CIDR",
        _flannel(),
        "trainstack:cluster.create.network.podCidr",
        "required",
    ),
    (
        "pod vSwitches are Terway's",
        _flannel(podCidr="172.20.0.0/16", podVswitchIds=["vsw-1"]),
        "trainstack:cluster.create.network.podVswitchIds",
        "none with flannel",
    ),
    (
        "pod CIDR does not overlap the Service CIDR",
        _flannel(podCidr="172.16.0.0/12"),
        "trainstack:cluster.create.network.podCidr",
        "not overlapping serviceCidr",
    ),
    (
        "pod CIDR does not overlap the VPC",
        _flannel(podCidr="192.168.0.0/20", vpcCidr="192.168.0.0/16"),
        "trainstack:cluster.create.network.podCidr",
        "not overlapping vpcCidr",
    ),
    (
        "node_cidr_mask: 24-28",
        _flannel(podCidr="172.20.0.0/16", nodeCidrMask=29),
        "trainstack:cluster.create.network.nodeCidrMask",
        "24 to 28",
    ),
    (
        "the network plug-in is installed once",
        _create("addons", [{"name": "flannel"}]),
        "trainstack:cluster.create.addons[0].name",
        "network.plugin installs it",
    ),
    (
        "add-ons once each",
        _create("addons", [{"name": "csi-plugin"}, {"name": "csi-plugin"}]),
        "trainstack:cluster.create.addons[1].name",
        "no other add-on uses",
    ),
    (
        "NAS volumes need the CSI add-ons",
        _create("addons", [{"name": "csi-plugin"}]),
        "trainstack:cluster.create.addons",
        "managed-csiprovisioner",
    ),
]


@pytest.mark.parametrize(("rule", "change", "key", "allowed"), RULES, ids=[r[0] for r in RULES])
def test_each_rule_is_refused_at_plan_time_naming_the_key(
    rule: str, change: Change, key: str, allowed: str
) -> None:
    config = example_config("aiacc")
    change(config["trainstack:cluster"])
    with pytest.raises(ConfigError, match=r"invalid stack configuration") as caught:
        load(config)
    [problem] = [p for p in caught.value.problems if p.path == key]
    assert allowed in problem.allowed, rule


def test_a_kubeconfig_with_a_created_cluster_is_refused_without_echoing_it() -> None:
    config = example_config("aiacc")
    config["trainstack:kubeconfig"] = {"secure": "v1:c2VjcmV0LWt1YmVjb25maWc="}
    with pytest.raises(ConfigError, match="trainstack:kubeconfig: found a kubeconfig") as caught:
        load(config)
    assert "c2VjcmV0" not in str(caught.value)
