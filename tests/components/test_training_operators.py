"""TrainingOperators: from minimal arguments, each enabled operator and where it is from; in the
example program, each enabled catalog release, installed from what its project publishes."""

from __future__ import annotations

from typing import Any

import pytest

from components.installers import InstallContext
from components.training_operators import TrainingOperators, TrainingOperatorsArgs
from tests.components.minimal import EXISTING_CLUSTER
from tests.components.mock_engine import Registered, build, provider, value
from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config, only
from trainstack.config.operators import Operators
from trainstack.plan.masking import COMPUTED
from trainstack.plan.model import Plan, PlannedResource
from trainstack.plan.runner import plan_stack

COMPONENT = "trainstack:operators:TrainingOperators"
MPI = {"version": "0.8.2", "manifestSha256": "ab" * 32}
MPI_MANIFEST = (
    "https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.2/deploy/v2beta1/"
    "mpi-operator.yaml"
)
CONFIG_GROUP = "kubernetes:yaml/v2:ConfigGroup"
KUSTOMIZE = "kubernetes:kustomize/v2:Directory"
ADDON = "alicloud:cs/kubernetesAddon:KubernetesAddon"
RELEASE = "kubernetes:helm.sh/v3:Release"


def _build(operators: dict[str, Any]) -> tuple[TrainingOperators, Registered]:
    settings = Operators.model_validate(operators)

    def make() -> TrainingOperators:
        context = InstallContext(
            EXISTING_CLUSTER, provider(), "stacks/Pulumi.test.yaml", offline=True
        )
        return TrainingOperators("operators", TrainingOperatorsArgs(settings, context))

    return build(make)


def test_the_component_records_where_each_operator_comes_from() -> None:
    made, registered = _build({"mpiOperator": MPI, "trainingOperator": {"version": "1.9.4"}})
    assert registered.one(COMPONENT).inputs == {
        "mpiOperator": {
            "install": "manifest",
            "namespace": "mpi-operator",
            "sha256": "ab" * 32,
            "url": MPI_MANIFEST,
            "version": "0.8.2",
        },
        "trainingOperator": {
            "base": "https://github.com/kubeflow/trainer//manifests/overlays/standalone?ref=v1.9.4",
            "install": "kustomize",
            "kustomization": "./operators/training-operator/1.9.4",
            "namespace": "kubeflow",
            "version": "1.9.4",
        },
    }
    assert value(made.installed) == ["mpiOperator 0.8.2", "trainingOperator 1.9.4"]


def test_each_enabled_operator_is_one_child_named_after_its_key() -> None:
    operators = {"mpiOperator": MPI, "trainingOperator": {"version": "1.9.4", "enabled": False}}
    _, registered = _build(operators)
    children = registered.children(registered.one(COMPONENT))
    assert [(r.type, r.name) for r in children] == [
        ("kubernetes:yaml/v2:ConfigGroup", "operators-mpiOperator")
    ]


def test_a_mirror_is_what_is_recorded_and_installed_from() -> None:
    mirror = {**MPI, "manifestUrl": "https://oss.example.com/mpi-operator.yaml"}
    _, registered = _build({"mpiOperator": mirror})
    recorded = registered.one(COMPONENT).inputs["mpiOperator"]
    assert recorded["url"] == "https://oss.example.com/mpi-operator.yaml"


def _children(plan: Plan, type_token: str) -> list[PlannedResource]:
    return [r for r in plan.of_type(type_token) if r.parent.endswith(f"{COMPONENT}::operators")]


@pytest.mark.parametrize("stack", ACK_STACKS)
def test_the_ack_stacks_install_upstream_operators_from_their_release_artifacts(
    example_plans: dict[str, Plan], stack: str
) -> None:
    plan = example_plans[stack]
    (manifest,) = _children(plan, CONFIG_GROUP)
    (overlay,) = _children(plan, KUSTOMIZE)
    # The manifest is downloaded (and its digest checked) at deploy time, never offline.
    assert manifest.inputs == {"yaml": COMPUTED}
    assert overlay.inputs == {"directory": "./operators/training-operator/1.9.4"}
    assert plan.of_type("kubernetes:helm.sh/v3:Release") != []  # experiments and Kueue only
    assert not [r for r in plan.of_type("kubernetes:helm.sh/v3:Release") if "operators" in r.parent]


def test_the_aiacc_stack_records_where_each_operator_comes_from(
    example_plans: dict[str, Plan],
) -> None:
    component = only(example_plans["aiacc"], COMPONENT).inputs
    assert component == {
        "mpiOperator": {
            "install": "manifest",
            "namespace": "mpi-operator",
            "sha256": "<sha256 of mpi-operator v0.8.2 deploy/v2beta1/mpi-operator.yaml>",
            "url": MPI_MANIFEST,
            "version": "0.8.2",
        },
        "trainingOperator": {
            "base": "https://github.com/kubeflow/trainer//manifests/overlays/standalone?ref=v1.9.4",
            "install": "kustomize",
            "kustomization": "./operators/training-operator/1.9.4",
            "namespace": "kubeflow",
            "version": "1.9.4",
        },
    }


def test_a_mirror_and_a_pinned_digest_are_what_the_plan_records(
    write_stack: StackWriter,
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"].update(
        {"manifestSha256": "ab" * 32, "manifestUrl": "https://oss.example.com/mpi-operator.yaml"}
    )
    config["trainstack:experiments"]["select"] = ["imagenet-tensorflow"]
    component = only(plan_stack(write_stack(config), "test"), COMPONENT).inputs
    assert component["mpiOperator"]["url"] == "https://oss.example.com/mpi-operator.yaml"
    assert component["mpiOperator"]["sha256"] == "ab" * 32


def test_a_disabled_operator_is_not_installed(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainingOperator"]["enabled"] = False
    config["trainstack:experiments"]["select"] = ["imagenet-tensorflow"]
    plan = plan_stack(write_stack(config), "test")
    assert _children(plan, KUSTOMIZE) == []
    assert len(_children(plan, CONFIG_GROUP)) == 1


def test_ack_arena_is_an_ack_add_on_at_its_exact_version(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"] = {"arena": {"version": "0.14.2"}}
    config["trainstack:experiments"]["select"] = ["pytorch-ddp-mnist"]
    config["trainstack:experiments"]["overrides"] = {
        "pytorch-ddp-mnist": {"security": {"seccompProfile": None}}
    }
    plan = plan_stack(write_stack(config), "test")
    (addon,) = _children(plan, ADDON)
    assert (addon.inputs["name"], addon.inputs["version"]) == ("ack-arena", "0.14.2")
    assert addon.inputs["clusterId"] == "[computed]"  # the cluster the stack creates


def test_the_trainer_installs_from_its_chart_with_its_runtimes_and_the_stacks_values(
    write_stack: StackWriter,
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainer"] = {
        "version": "2.3.0",
        "values": {"runtimes": {"mlxDistributed": {"enabled": True}}},
    }
    config["trainstack:experiments"]["select"] = ["imagenet-tensorflow"]
    plan = plan_stack(write_stack(config), "test")
    (release,) = _children(plan, RELEASE)
    assert (release.inputs["chart"], release.inputs["version"]) == (
        "oci://ghcr.io/kubeflow/charts/kubeflow-trainer",
        "2.3.0",
    )
    assert (release.inputs["name"], release.inputs["namespace"]) == (
        "kubeflow-trainer",
        "kubeflow-system",
    )
    # the catalog's runtimes, and the stack's on top
    assert release.inputs["values"] == {
        "runtimes": {
            "torchDistributed": {"enabled": True},
            "deepspeedDistributed": {"enabled": True},
            "mlxDistributed": {"enabled": True},
        }
    }
    component = only(plan, COMPONENT).inputs
    assert component["trainer"] == {
        "chart": "oci://ghcr.io/kubeflow/charts/kubeflow-trainer",
        "chartVersion": "2.3.0",
        "install": "chart",
        "namespace": "kubeflow-system",
        "version": "2.3.0",
    }


def test_operators_use_the_stack_cluster(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["aiacc"]
    (provider,) = plan.of_type("pulumi:providers:kubernetes")
    assert provider.name == "cluster"
    for child in _children(plan, CONFIG_GROUP) + _children(plan, KUSTOMIZE):
        assert child.parent.endswith("operators")
