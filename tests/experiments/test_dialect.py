"""A job spelt for the operator that serves it: new values returned, the caller's untouched."""

from __future__ import annotations

import copy
from typing import Any

from tests.experiment_helpers import load, stack_config
from trainstack.experiments.dialect import in_operator_api
from trainstack.training_job import TrainingJob

JOB: dict[str, Any] = {
    "framework": "tensorflow",
    "image": {"name": "registry.example.com/mnist:1"},
    "worker": {"replicas": 2, "gpus": 1},
    "security": {"seccompProfile": None},
}


def _operators(operators: dict[str, Any]) -> Any:
    return load(stack_config(operators=operators)).config.operators


def test_the_arena_dialect_comes_back_in_new_values() -> None:
    values = copy.deepcopy(JOB)
    spelt, problems = in_operator_api(
        values, _operators({"arena": {"version": "0.14.2"}}), TrainingJob.model_validate
    )
    assert problems == []
    assert spelt == {**JOB, "operatorApi": "arena"}
    assert values == JOB  # the argument is not written to


def test_the_default_dialect_leaves_the_values_as_they_are() -> None:
    spelt, problems = in_operator_api(
        JOB, _operators({"trainingOperator": {"version": "1.9.4"}}), TrainingJob.model_validate
    )
    assert (spelt, problems) == (JOB, [])


def test_a_setting_the_served_api_drops_is_a_problem_and_nothing_is_spelt() -> None:
    values = {**JOB, "security": {"seccompProfile": "RuntimeDefault"}}
    spelt, problems = in_operator_api(
        values, _operators({"arena": {"version": "0.14.2"}}), TrainingJob.model_validate
    )
    assert spelt is values
    assert [problem.path for problem in problems] == ["job.security.seccompProfile"]
