"""Operators: pinned charts, and one owner per training CRD."""

from __future__ import annotations

from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.errors import ConfigError

TRAINING_OPERATOR = {
    "chart": {
        "repo": "oci://registry.example.com/charts",
        "name": "training-operator",
        "version": "1.9.4",
    },
    "namespace": "kubeflow",
}


def _operators(**changes: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:operators"].update(changes)
    return config


def test_mpijob_crd_from_two_operators_is_refused(load: Loader) -> None:
    with pytest.raises(ConfigError, match="mpijobs.kubeflow.org") as caught:
        load(_operators(trainingOperator=TRAINING_OPERATOR))
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:operators.trainingOperator.enabled"
    assert problem.found == "true"
    assert problem.allowed.startswith("false while mpiOperator is enabled")


def test_arena_forked_mpi_operator_must_be_off_next_to_mpi_operator(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:operators"]["arena"]["values"]
    with pytest.raises(ConfigError, match="both install mpijobs.kubeflow.org") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:operators.arena.values.mpi.enabled"
    assert problem.found == '"unset (chart default: true)"'


def test_arena_and_training_operator_conflict_on_tfjobs(load: Loader) -> None:
    config = _operators(trainingOperator=TRAINING_OPERATOR)
    del config["trainstack:operators"]["mpiOperator"]
    with pytest.raises(
        ConfigError, match="pytorchjobs.kubeflow.org, tfjobs.kubeflow.org"
    ) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:operators.arena.values.tf.enabled"
    assert problem.allowed.startswith(
        "values.tf.enabled: false and values.pytorch.enabled: false on arena while "
        "trainingOperator is enabled"
    )


def test_disabled_operator_owns_nothing(load: Loader) -> None:
    stack = load(_operators(trainingOperator={**TRAINING_OPERATOR, "enabled": False}))
    served = stack.config.operators.served_crds()
    assert served["mpijobs.kubeflow.org"] == ("mpiOperator", "kubeflow.org/v2beta1")
    assert served["tfjobs.kubeflow.org"] == ("arena", "kubeflow.org/v1")


@pytest.mark.parametrize(
    ("chart", "path", "allowed_start"),
    [
        (
            {"version": "^0.6"},
            "trainstack:operators.mpiOperator.chart.version",
            "an exact version",
        ),
        (
            {"version": "latest"},
            "trainstack:operators.mpiOperator.chart.version",
            "an exact version",
        ),
        (
            {"repo": "registry/charts"},
            "trainstack:operators.mpiOperator.chart.repo",
            "an https:// or oci:// URL",
        ),
        ({"name": ""}, "trainstack:operators.mpiOperator.chart.name", "a DNS label"),
    ],
)
def test_charts_are_pinned_and_addressable(
    load: Loader, chart: dict[str, str], path: str, allowed_start: str
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"]["chart"].update(chart)
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == path
    assert problem.allowed.startswith(allowed_start)
