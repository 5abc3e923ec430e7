"""Acceleration: the AIACC add-on on the accelerated stack only."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import example_config, only
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"


def test_aiacc_only_in_the_accelerated_stack(example_plans: dict[str, Plan]) -> None:
    addon = only(example_plans["aiacc"], ADDON).inputs
    assert addon["name"] == "ack-aiacc"
    assert addon["clusterId"] == "c5e1f8a2b7d9c4e6f0a3b2c1d8e7f6a5b"
    assert example_plans["baseline"].of_type(ADDON) == []
    assert example_plans["baseline"].of_type("trainstack:acceleration:Acceleration") == []


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
