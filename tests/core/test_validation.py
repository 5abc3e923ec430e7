"""pydantic's errors as problems at the keys the user wrote."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from trainstack.config.stack import StackConfig
from trainstack.core.validation import problems_from
from trainstack.experiments.model import ExperimentFile


def _problems(model: Any, data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return [(p.path, p.found, p.allowed) for p in problems_from(caught.value, model)]


def test_a_value_no_union_member_takes_is_one_problem_at_its_key() -> None:
    data = {"name": "x", "matrix": {"axes": {"n": "worker.replicas"}, "points": [{"n": [1]}]}}
    assert _problems(ExperimentFile, {**data, "job": {}}) == [
        ("matrix.points[0].n", "[1]", "one of: a string; an integer; true or false")
    ]


@pytest.mark.parametrize(
    ("section", "value", "path", "tags"),
    [
        ("cluster", {"clusterId": "c1234567"}, "cluster.provider", "'alicloud', 'existing'"),
        (
            "acceleration",
            {"enabled": True, "component": {"name": "ack-aiacc"}},
            "acceleration.component.kind",
            "'ack-addon', 'helm'",
        ),
    ],
)
def test_a_missing_discriminator_is_named_with_its_choices(
    section: str, value: dict[str, Any], path: str, tags: str
) -> None:
    data = {
        "cluster": {"provider": "existing"},
        "nodePools": [{"name": "gpu", "gpusPerNode": 1, "gpuModel": "T4", "desiredSize": 0}],
        section: value,
    }
    assert _problems(StackConfig, data) == [
        (path, "nothing (the key is missing)", f"one of {tags}")
    ]
