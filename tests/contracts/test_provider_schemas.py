"""Every resource the program registers is one its provider accepts (issue 10, item 6).

The offline plan runs the real program under Pulumi's mocks, which accept any input; the
providers do not. These tests check the inputs of every registered resource -- of the
example stacks and of stack configs that reach the other branches of the program -- against
the providers' Pulumi package schemas and the Terraform rules the bridged alicloud provider
runs at ``pulumi preview`` (see tests/contracts/pulumi_schema.py), read from
``TRAINSTACK_PULUMI_SCHEMA_DIR``. The checker itself is tested first, on deliberately wrong
inputs, so that a clean result means something.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.conformance import crd_dir, validate_objects
from tests.conftest import EXAMPLE_STACKS, StackWriter
from tests.contracts.pulumi_schema import (
    ProviderSchemas,
    SchemaError,
    Violation,
    is_component,
    schema_dir,
)
from tests.stack_helpers import example_config, only
from trainstack.plan.model import Plan, PlannedResource
from trainstack.plan.runner import plan_stack

NODE_POOL = "alicloud:cs/nodePool:NodePool"
NAS = "alicloud:nas/fileSystem:FileSystem"
ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
RELEASE = "kubernetes:helm.sh/v3:Release"


@pytest.fixture(scope="module")
def schemas() -> ProviderSchemas:
    return ProviderSchemas.load(schema_dir())


def _resource(type_token: str, inputs: dict[str, Any], name: str = "r") -> PlannedResource:
    return PlannedResource(urn=f"urn:{name}", type=type_token, name=name, parent="", inputs=inputs)


def _with(resource: PlannedResource, **changes: Any) -> PlannedResource:
    """A copy of ``resource`` with inputs set (``None`` removes one)."""
    inputs = copy.deepcopy(resource.inputs)
    for key, value in changes.items():
        if value is None:
            inputs.pop(key, None)
        else:
            inputs[key] = value
    return dataclasses.replace(resource, inputs=inputs)


def _rules(violations: list[Violation]) -> set[tuple[str, str]]:
    return {(violation.path, violation.rule) for violation in violations}


def _assert_clean(plan: Plan, schemas: ProviderSchemas) -> None:
    provider_resources = [r for r in plan.resources if not is_component(r.type)]
    assert provider_resources, "the plan registered no provider resource: nothing was checked"
    violations = schemas.check_all(plan.resources)
    assert violations == [], "\n" + "\n".join(str(violation) for violation in violations)


# --- the checker reports what a provider would refuse ----------------------------------


@pytest.fixture(scope="module")
def node_pool(example_plans: dict[str, Plan]) -> PlannedResource:
    (pool,) = [r for r in example_plans["aiacc"].of_type(NODE_POOL) if r.name == "gpu-v100-pool"]
    return pool


def test_the_example_node_pool_is_clean(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    assert schemas.check(node_pool) == []


def test_unknown_input_is_reported_with_resource_path_and_rule(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    [violation] = schemas.check(_with(node_pool, desiredSise="4"))

    assert violation.resource == f"{NODE_POOL} gpu-v100-pool"
    assert (violation.path, violation.rule) == ("desiredSise", "unknown input")
    assert str(violation).startswith(f"{NODE_POOL} gpu-v100-pool: desiredSise: unknown input: ")


def test_missing_required_input(node_pool: PlannedResource, schemas: ProviderSchemas) -> None:
    assert _rules(schemas.check(_with(node_pool, clusterId=None))) == {("clusterId", "required")}


def test_wrong_types_top_level_and_nested(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    broken = _with(
        node_pool,
        systemDiskSize="200",
        taints=[{"key": "nvidia.com/gpu", "effect": "NoSchedule", "value": True}],
        instanceTypes="ecs.gn6e-c12g1.12xlarge",
    )
    assert _rules(schemas.check(broken)) == {
        ("systemDiskSize", "type"),
        ("taints[0].value", "type"),
        ("instanceTypes", "type"),
    }


def test_required_and_unknown_properties_of_referenced_types(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    broken = _with(node_pool, labels=[{"value": "gpu-v100", "colour": "green"}])
    assert _rules(schemas.check(broken)) == {
        ("labels[0].key", "required"),
        ("labels[0].colour", "unknown property"),
    }


def test_masked_values_are_present_and_unknown(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    masked = _with(node_pool, clusterId="[computed]", systemDiskSize="[secret]")
    assert schemas.check(masked) == []


def test_terraform_range_and_enum_in_a_flattened_block(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    broken = _with(
        node_pool,
        desiredSize=None,
        scalingConfig={"enable": True, "minSize": 0, "maxSize": 2001, "type": "gpu"},
        instanceChargeType="Monthly",
        autoRenewPeriod=5,
    )
    violations = schemas.check(broken)
    assert _rules(violations) == {
        ("scalingConfig.maxSize", "maximum"),
        ("instanceChargeType", "enum"),
        ("autoRenewPeriod", "enum"),
    }
    [maximum] = [v for v in violations if v.rule == "maximum"]
    assert maximum.detail == "2001 is above 2000"


def test_terraform_conflicts_with(node_pool: PlannedResource, schemas: ProviderSchemas) -> None:
    violations = schemas.check(_with(node_pool, instances=["i-1", "i-2"]))
    assert _rules(violations) == {
        ("desiredSize", "conflictsWith"),
        ("instances", "conflictsWith"),
    }


def test_conflicts_with_a_root_field_from_inside_a_block(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    scaling = {"enable": True, "maxSize": 4, "eipBandwidth": 5}
    broken = _with(node_pool, desiredSize=None, scalingConfig=scaling, internetChargeType="x")
    assert ("scalingConfig.eipBandwidth", "conflictsWith") in _rules(schemas.check(broken))


def test_a_masked_secret_counts_as_present_for_conflicts(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    broken = _with(node_pool, password="[secret]", keyName="ops")
    assert _rules(schemas.check(broken)) == {
        ("password", "conflictsWith"),
        ("keyName", "conflictsWith"),
    }


def test_sensitive_input_in_plain_text(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    # the example pool logs in with a key pair: without it, a plain password is the only issue
    assert _rules(schemas.check(_with(node_pool, password="hunter2", keyName=None))) == {
        ("password", "sensitive")
    }


def test_terraform_exactly_one_of(node_pool: PlannedResource, schemas: ProviderSchemas) -> None:
    both = schemas.check(_with(node_pool, name="gpu"))
    neither = schemas.check(_with(node_pool, nodePoolName=None))

    assert ("nodePoolName", "exactlyOneOf") in _rules(both)
    assert ("name", "deprecated") in _rules(both)
    assert _rules(neither) == {("nodePoolName", "exactlyOneOf")}
    assert "exactly one of nodePoolName, name must be set, found []" in neither[0].detail


def test_terraform_rules_of_nested_list_blocks(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    broken = _with(
        node_pool,
        dataDisks=[{"size": 20, "category": "cloud_fast"}],
        instancePatterns=[{"cores": 8}],
    )
    assert _rules(schemas.check(broken)) == {
        ("dataDisks[0].size", "minimum"),
        ("dataDisks[0].category", "enum"),
        ("instancePatterns[0].instanceFamilyLevel", "required"),
    }


def test_known_and_unknown_validate_functions(
    node_pool: PlannedResource, schemas: ProviderSchemas
) -> None:
    containerd = {"limitNoFile": "512", "ignoreImageDefinedVolume": "maybe"}
    assert _rules(schemas.check(_with(node_pool, containerdConfig=containerd))) == {
        ("containerdConfig.limitNoFile", "validateFunc"),
        ("containerdConfig.ignoreImageDefinedVolume", "validateFunc"),
    }


def test_nas_enum(example_plans: dict[str, Plan], schemas: ProviderSchemas) -> None:
    nas = only(example_plans["imagenet"], NAS)
    assert _rules(schemas.check(_with(nas, storageType="Fast"))) == {("storageType", "enum")}


def test_kubernetes_const_and_nested_required(
    example_plans: dict[str, Plan], schemas: ProviderSchemas
) -> None:
    volume = only(example_plans["aiacc"], "kubernetes:core/v1:PersistentVolume", "imagenet-data-pv")
    spec = copy.deepcopy(volume.inputs["spec"])
    del spec["csi"]["driver"]
    broken = _with(volume, kind="PersistentVolumes", spec=spec)
    assert _rules(schemas.check(broken)) == {
        ("kind", "const"),
        ("spec.csi.driver", "required"),
    }


def test_helm_release_inputs(example_plans: dict[str, Plan], schemas: ProviderSchemas) -> None:
    release = example_plans["onprem"].of_type(RELEASE)[0]
    broken = _with(release, values=["not", "a", "map"], timeout="10m", chart=None)
    assert _rules(schemas.check(broken)) == {
        ("values", "type"),
        ("timeout", "type"),
        ("chart", "required"),
    }


def test_custom_resource_contract(example_plans: dict[str, Plan], schemas: ProviderSchemas) -> None:
    [queue, *_] = example_plans["aiacc"].of_type("kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue")
    assert schemas.check(queue) == []
    broken = _with(queue, apiVersion="kueue.x-k8s.io/v1beta1", status={}, kind=None)
    assert _rules(schemas.check(broken)) == {
        ("apiVersion", "const"),
        ("status", "unknown input"),
        ("kind", "required"),
    }


def test_provider_inputs(example_plans: dict[str, Plan], schemas: ProviderSchemas) -> None:
    provider = only(example_plans["onprem"], "pulumi:providers:kubernetes")
    assert schemas.check(provider) == []
    assert _rules(schemas.check(_with(provider, kubeContext="x"))) == {
        ("kubeContext", "unknown input")
    }


@pytest.mark.parametrize(
    ("type_token", "reason"),
    [
        ("kubernetes:yaml/v2:ConfigFile", "a type of the SDK) is not described by kubernetes.json"),
        ("kubernetes:apps/v1:Deploymnt", "(unknown) is not described by kubernetes.json"),
        ("alicloud:cs/kubernetes:Kubernetes", "is not described by alicloud.json"),
        ("aws:s3/bucket:Bucket", "no schema for package 'aws'"),
        ("pulumi:providers:aws", "no schema for package 'aws'"),
    ],
)
def test_a_type_the_schemas_do_not_describe_is_a_violation(
    type_token: str, reason: str, schemas: ProviderSchemas
) -> None:
    [violation] = schemas.check(_resource(type_token, {}))
    assert violation.rule == "undescribed type"
    assert reason in violation.detail


def test_components_are_not_provider_resources(schemas: ProviderSchemas) -> None:
    assert schemas.check(_resource("trainstack:infra:GpuNodePool", {"anything": 1})) == []
    assert schemas.check(_resource("pulumi:pulumi:Stack", {})) == []


DEMO_PACKAGE = {
    "name": "demo",
    "version": "1.0.0",
    "provider": {"inputProperties": {"region": {"type": "string"}}, "requiredInputs": ["region"]},
    "x-resourceTokens": ["demo:index:Pool", "demo:index:Other"],
    "types": {
        "demo:index/Scaling:Scaling": {
            "type": "object",
            "properties": {"maxSize": {"type": "integer"}, "minSize": {"type": "integer"}},
            "required": ["maxSize"],
        }
    },
    "resources": {
        "demo:index:Pool": {
            "inputProperties": {
                "name": {"type": "string", "deprecationMessage": "use poolName"},
                "poolName": {"type": "string"},
                "size": {"type": "integer"},
                "zones": {"type": "array", "items": {"type": "string"}},
                "scaling": {"$ref": "#/types/demo:index/Scaling:Scaling"},
                "tier": {"type": "string", "multipleOf": 2},
                "label": {"type": "string"},
            },
            "requiredInputs": ["size"],
        }
    },
}
DEMO_RULES = {
    "resources": {
        "demo:index:Pool": {
            "fields": {
                "name": {"type": "string", "exactlyOneOf": ["name", "pool_name"]},
                "pool_name": {"type": "string", "exactlyOneOf": ["name", "pool_name"]},
                "size": {"type": "int", "required": True, "conflictsWith": ["scaling"]},
                "zones": {
                    "type": "list",
                    "maxItems": 2,
                    "elem": {"type": "string"},
                    "atLeastOneOf": ["zones", "label"],
                },
                "label": {"type": "string", "requiredWith": ["pool_name"]},
                "scaling": {
                    "type": "list",
                    "maxItems": 1,
                    "elem": {
                        "fields": {
                            "max_size": {"type": "int", "required": True, "maximum": 10},
                            "min_size": {"type": "int", "enum": [0, 1]},
                        }
                    },
                },
            }
        }
    }
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> ProviderSchemas:
    """A small package of its own, so that the checker is tested on every machine."""
    directory = tmp_path_factory.mktemp("schemas")
    (directory / "demo.json").write_text(json.dumps(DEMO_PACKAGE))
    (directory / "demo-tf-validations.json").write_text(json.dumps(DEMO_RULES))
    return ProviderSchemas(directory)


def test_checker_on_a_package_of_its_own(demo: ProviderSchemas) -> None:
    pool = _resource("demo:index:Pool", {"poolName": "a", "size": 2, "zones": ["a"]}, "p")
    assert demo.check(pool) == []
    broken = _resource(
        "demo:index:Pool",
        {
            "name": "a",
            "poolName": "a",
            "size": "2",
            "zones": ["a", "b", 3],
            "scaling": {"minSize": 2, "maxSize": 11},
            "colour": "red",
        },
        "p",
    )
    assert [str(violation) for violation in demo.check(broken)] == [
        "demo:index:Pool p: colour: unknown input: not an input of this type "
        "(label, name, poolName, scaling, size, tier, zones)",
        "demo:index:Pool p: name: deprecated: use poolName",
        "demo:index:Pool p: name: exactlyOneOf: exactly one of name, poolName must be set, "
        "found ['name', 'poolName']",
        "demo:index:Pool p: scaling.maxSize: maximum: 11 is above 10",
        "demo:index:Pool p: scaling.minSize: enum: 2 is not one of [0, 1]",
        "demo:index:Pool p: size: conflictsWith: cannot be set together with scaling",
        "demo:index:Pool p: size: type: expected integer, found str '2'",
        "demo:index:Pool p: zones: maxItems: 3 items, at most 2 allowed",
        "demo:index:Pool p: zones[2]: type: expected string, found int 3",
    ]


def test_checker_required_inputs_and_masked_values(demo: ProviderSchemas) -> None:
    missing = _resource("demo:index:Pool", {"poolName": "a", "scaling": {"minSize": 0}}, "p")
    assert _rules(demo.check(missing)) == {
        ("size", "required"),
        ("scaling.maxSize", "required"),
        ("zones", "atLeastOneOf"),
    }
    alone = _resource("demo:index:Pool", {"name": "a", "size": 1, "label": "x", "siz": 2}, "p")
    assert [(v.path, v.rule, v.detail) for v in demo.check(alone)] == [
        ("label", "requiredWith", "needs poolName set too"),
        ("name", "deprecated", "use poolName"),
        ("siz", "unknown input", "not an input of this type; did you mean size?"),
    ]
    masked = _resource(
        "demo:index:Pool", {"poolName": "[computed]", "size": "[secret]", "label": "[secret]"}, "p"
    )
    assert demo.check(masked) == []


def test_checker_provider_and_undescribed_types(demo: ProviderSchemas) -> None:
    assert _rules(demo.check(_resource("pulumi:providers:demo", {}))) == {("region", "required")}
    [other] = demo.check(_resource("demo:index:Other", {}))
    assert (other.rule, other.detail) == (
        "undescribed type",
        "demo:index:Other (a type of the SDK) is not described by demo.json (demo 1.0.0): "
        "add its section to the schema directory",
    )


def test_a_schema_keyword_the_checker_does_not_know_fails_loudly(demo: ProviderSchemas) -> None:
    pool = _resource("demo:index:Pool", {"poolName": "a", "size": 1, "tier": "gold"})
    with pytest.raises(
        SchemaError, match=r"tier: schema keywords not understood: \{'multipleOf'\}"
    ):
        demo.check(pool)


def test_every_settable_terraform_field_maps_to_a_pulumi_input(schemas: ProviderSchemas) -> None:
    # Guards the snake_case -> camelCase mapping the Terraform rules rely on.
    assert schemas.tf_rules, "no Terraform rules were loaded"
    assert schemas.unmapped_terraform_fields() == {}


# --- the program's plans ------------------------------------------------------------------


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_example_stack_resources_follow_provider_schemas(
    stack: str, example_plans: dict[str, Plan], schemas: ProviderSchemas
) -> None:
    _assert_clean(example_plans[stack], schemas)


def _autoscaling(config: dict[str, Any]) -> None:
    config["trainstack:nodePools"][0]["autoscaling"] = {"enabled": True, "minSize": 1, "maxSize": 8}


def _nas_variants(config: dict[str, Any]) -> None:
    base = config["trainstack:datasets"][0]
    created = copy.deepcopy(base) | {"name": "capacity-data", "sharedWith": ["nlp"]}
    created["source"] = {
        "type": "alicloud-nas",
        "path": "/exports",
        "create": {
            "storageType": "Capacity",
            "zoneId": "cn-beijing-h",
            "vswitchId": "vsw-2ze0trainstackgpu02",
            "description": "capacity-NAS",
        },
    }
    premium = copy.deepcopy(created) | {"name": "premium-data", "sharedWith": []}
    premium["source"]["create"] = {"storageType": "Premium", "zoneId": "cn-beijing-h"}
    existing = copy.deepcopy(base) | {"name": "existing-nas", "subPath": "imagenet"}
    existing["source"] = {
        "type": "alicloud-nas",
        "mountTargetDomain": "0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com",
    }
    nfs = copy.deepcopy(base) | {"name": "nfs-data"}
    nfs["source"] = {"type": "nfs", "server": "172.16.10.10", "path": "/data"}
    config["trainstack:datasets"] += [created, premium, existing, nfs]


def _addon_with_version(config: dict[str, Any]) -> None:
    config["trainstack:acceleration"]["component"] = {
        "kind": "ack-addon",
        "name": "example-aiacc-addon",
        "version": "1.1.0",
        "config": {"perseus": {"enabled": True}},
    }


def _ack_arena(config: dict[str, Any]) -> None:
    config["trainstack:operators"] = {"arena": {"version": "0.14.2"}}
    config["trainstack:experiments"] = {
        "select": ["pytorch-ddp-mnist"],
        "overrides": {"pytorch-ddp-mnist": {"security": {"seccompProfile": None}}},
    }


def _onprem_nas_mount_and_acceleration_chart(config: dict[str, Any]) -> None:
    config["trainstack:datasets"].append(
        {
            "name": "nas-data",
            "capacity": "1Ti",
            "source": {
                "type": "alicloud-nas",
                "mountTargetDomain": "0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com",
            },
        }
    )
    config["trainstack:acceleration"] = {
        "enabled": True,
        "component": {
            "kind": "helm",
            "chart": {
                "repo": "oci://registry.example.internal/charts",
                "name": "aiacc",
                "version": "1.0.0",
            },
            "namespace": "aiacc-system",
            "values": {"image": {"tag": "v3"}},
        },
    }


def _onprem_teams_and_queueing(config: dict[str, Any]) -> None:
    ack = example_config("aiacc")
    config["trainstack:teams"] = ack["trainstack:teams"]
    config["trainstack:queueing"] = ack["trainstack:queueing"]
    config["trainstack:experiments"] = {"select": []}


VARIANTS: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "ack-autoscaling": ("aiacc", _autoscaling),
    "ack-nas-and-nfs-datasets": ("aiacc", _nas_variants),
    "ack-addon-with-version-and-config": ("aiacc", _addon_with_version),
    "ack-arena-add-on": ("aiacc", _ack_arena),
    "existing-cluster-nodes-nas-mount-acceleration-helm": (
        "onprem",
        _onprem_nas_mount_and_acceleration_chart,
    ),
    "existing-cluster-teams-and-queueing": ("onprem", _onprem_teams_and_queueing),
}
"""Stack configs that reach the program's other branches, from an example stack."""

VARIANT_TYPES = {
    "ack-autoscaling": {NODE_POOL},
    "ack-nas-and-nfs-datasets": {NAS, "alicloud:nas/mountTarget:MountTarget"},
    "ack-addon-with-version-and-config": {ADDON},
    "ack-arena-add-on": {ADDON},
    "existing-cluster-nodes-nas-mount-acceleration-helm": {"kubernetes:core/v1:NodePatch", RELEASE},
    "existing-cluster-teams-and-queueing": {
        "kubernetes:core/v1:Namespace",
        "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue",
    },
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_stack_variant_resources_follow_provider_schemas(
    variant: str, write_stack: StackWriter, schemas: ProviderSchemas
) -> None:
    stack, change = VARIANTS[variant]
    config = example_config(stack)
    change(config)
    plan = plan_stack(write_stack(config), "test")
    assert VARIANT_TYPES[variant] <= {resource.type for resource in plan.resources}
    _assert_clean(plan, schemas)


def test_variants_reach_the_branches_they_name(write_stack: StackWriter) -> None:
    """The variants are not vacuous: each plan has what its name promises."""
    config = example_config("aiacc")
    _autoscaling(config)
    (pool,) = [
        r
        for r in plan_stack(write_stack(config), "test").of_type(NODE_POOL)
        if r.name == "gpu-v100-pool"
    ]
    assert pool.inputs["scalingConfig"] == {
        "enable": True,
        "minSize": 1,
        "maxSize": 8,
        "type": "gpu",
    }
    assert "desiredSize" not in pool.inputs

    config = example_config("aiacc")
    _nas_variants(config)
    plan = plan_stack(write_stack(config), "test")
    storage = sorted(resource.inputs["storageType"] for resource in plan.of_type(NAS))
    assert storage == ["Capacity", "Premium"]  # ImageNet's Performance NAS is the data stack's


def test_custom_resources_follow_the_crds_of_their_api(
    example_plans: dict[str, Plan], schemas: ProviderSchemas
) -> None:
    """Their ``spec`` is free-form for the provider: the operator's CRD decides."""
    crds = crd_dir()
    custom = [
        resource.inputs
        for plan in example_plans.values()
        for resource in plan.resources
        if schemas.is_custom_resource(resource.type)
    ]
    assert validate_objects(custom, crds) == len(custom) >= 5
