"""Acceleration: from minimal arguments, the named component as an add-on or a chart; in the
example program, job overrides on the accelerated stack and a cluster component only when named."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from components.acceleration import Acceleration, AccelerationArgs
from tests.components.minimal import ACK_CLUSTER, EXISTING_CLUSTER
from tests.components.mock_engine import Registered, build, provider, value
from tests.conftest import StackWriter
from tests.stack_helpers import example_config, only
from trainstack.config.acceleration import AccelerationComponent
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
COMPONENT = "trainstack:acceleration:Acceleration"


def _build(component: dict[str, Any], cluster: Any) -> tuple[Acceleration, Registered]:
    spec = TypeAdapter(AccelerationComponent).validate_python(component)
    return build(lambda: Acceleration("acceleration", AccelerationArgs(spec, cluster, provider())))


def test_an_ack_add_on_at_its_exact_version_with_its_configuration() -> None:
    addon = {"kind": "ack-addon", "name": "aiacc", "version": "1.2.3", "config": {"b": 1, "a": 2}}
    made, registered = _build(addon, ACK_CLUSTER)
    (installed,) = registered.children(registered.one("trainstack:acceleration:Acceleration"))
    assert (installed.type, installed.name) == (
        "alicloud:cs/kubernetesAddon:KubernetesAddon",
        "acceleration-addon",
    )
    assert installed.inputs == {
        "clusterId": "c0123456789",
        "name": "aiacc",
        "version": "1.2.3",
        "config": '{"a": 2, "b": 1}',
    }
    assert value(made.component_name) == "aiacc 1.2.3"


def test_a_chart_on_any_cluster_through_its_provider() -> None:
    chart = {"repo": "https://charts.example.com", "name": "accel", "version": "0.3.0"}
    helm = {"kind": "helm", "chart": chart, "namespace": "accel", "values": {"a": "b"}}
    made, registered = _build(helm, EXISTING_CLUSTER)
    release = registered.one("kubernetes:helm.sh/v3:Release")
    assert release.name == "acceleration-release"
    assert (release.inputs["name"], release.inputs["namespace"], release.inputs["values"]) == (
        "accel",
        "accel",
        {"a": "b"},
    )
    assert release.inputs["repositoryOpts"] == {"repo": "https://charts.example.com"}
    assert release.provider.startswith(registered.named("cluster").urn)
    assert value(made.component_name) == "accel 0.3.0"


def test_the_seeds_component_is_a_placeholder_on_the_accelerated_cluster_only(
    example_plans: dict[str, Plan],
) -> None:
    assert example_plans["baseline"].of_type(ADDON) == []
    assert example_plans["baseline"].of_type(COMPONENT) == []
    # its name and version are not documented: placeholders, never invented
    addon = only(example_plans["aiacc"], ADDON)
    assert addon.inputs["name"].startswith("<name of the AI Acceleration component")
    assert addon.inputs["version"] == "<its exact version on this cluster>"
    placeholders = dict(example_plans["aiacc"].stack.placeholders())
    assert "trainstack:acceleration.component.name" in placeholders
    assert "trainstack:acceleration.component.version" in placeholders
    # AIACC-Training ships in the image: the jobs differ by the overrides.
    (imagenet,) = [
        e for e in example_plans["aiacc"].experiments if e.release_name == "imagenet-tensorflow"
    ]
    assert imagenet.acceleration_overrides == {"env": {"PERSEUS_ALLREDUCE_DTYPE": "0"}}
    assert imagenet.values["env"] == {
        "OMPI_MCA_btl_vader_single_copy_mechanism": "none",  # the experiment's own
        "PERSEUS_ALLREDUCE_DTYPE": "0",
    }


def test_a_named_add_on_is_installed_at_its_version_and_experiments_wait_for_it(
    write_stack: StackWriter, dependencies: dict[str, list[str]]
) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["component"] = {
        "kind": "ack-addon",
        "name": "example-aiacc-addon",
        "version": "1.2.3",
    }
    config["trainstack:experiments"]["select"] = ["imagenet-tensorflow"]
    plan = plan_stack(write_stack(config), "test")
    addon = only(plan, ADDON)
    assert (addon.inputs["name"], addon.inputs["version"]) == ("example-aiacc-addon", "1.2.3")
    (release,) = [
        r
        for r in plan.of_type("kubernetes:helm.sh/v3:Release")
        if r.inputs["name"] == "imagenet-tensorflow"
    ]
    # depending on a component means waiting for its children
    assert addon.urn in dependencies[release.urn]


def test_helm_component_for_other_clusters(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:acceleration"]["component"] = {
        "kind": "helm",
        "chart": {"repo": "https://charts.example.com", "name": "aiacc", "version": "1.2.0"},
        "namespace": "aiacc-system",
        "values": {"mode": "training"},
    }
    plan = plan_stack(write_stack(config), "test")
    assert plan.of_type(ADDON) == []
    (release,) = [
        r for r in plan.of_type("kubernetes:helm.sh/v3:Release") if r.inputs["name"] == "aiacc"
    ]
    assert release.inputs["version"] == "1.2.0"
    assert release.inputs["values"] == {"mode": "training"}
    assert release.inputs["namespace"] == "aiacc-system"
