"""Acceleration, built from minimal arguments: the named component, an add-on or a chart."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from components.acceleration import Acceleration, AccelerationArgs
from tests.components.minimal.clusters import ACK, EXISTING
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.config.acceleration import AccelerationComponent


def _build(component: dict[str, Any], cluster: Any) -> tuple[Acceleration, Registered]:
    spec = TypeAdapter(AccelerationComponent).validate_python(component)
    return build(lambda: Acceleration("acceleration", AccelerationArgs(spec, cluster, provider())))


def test_an_ack_add_on_at_its_exact_version_with_its_configuration() -> None:
    addon = {"kind": "ack-addon", "name": "aiacc", "version": "1.2.3", "config": {"b": 1, "a": 2}}
    made, registered = _build(addon, ACK)
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
    made, registered = _build(helm, EXISTING)
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
