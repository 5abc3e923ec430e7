"""TrainingOperators, built from minimal arguments: each enabled operator, and where it is from."""

from __future__ import annotations

from typing import Any

from components.installers import InstallContext
from components.training_operators import TrainingOperators, TrainingOperatorsArgs
from tests.components.minimal.clusters import EXISTING
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.config.operators import Operators

COMPONENT = "trainstack:operators:TrainingOperators"
MPI = {"version": "0.8.2", "manifestSha256": "ab" * 32}
MPI_MANIFEST = (
    "https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.2/deploy/v2beta1/"
    "mpi-operator.yaml"
)


def _build(operators: dict[str, Any]) -> tuple[TrainingOperators, Registered]:
    settings = Operators.model_validate(operators)

    def make() -> TrainingOperators:
        context = InstallContext(EXISTING, provider(), "stacks/Pulumi.test.yaml", offline=True)
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
