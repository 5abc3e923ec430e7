"""pydantic's errors as problems at the keys the user wrote."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest
from pydantic import Field, ValidationError, field_validator

from trainstack.config.stack import StackConfig
from trainstack.core.base_model import StrictModel
from trainstack.core.validation import problems_from
from trainstack.experiments.model import ExperimentFile
from trainstack.training_job.model import TrainingJob


def _problems(model: Any, data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return [(p.path, p.found, p.allowed) for p in problems_from(caught.value, model)]


def test_a_value_no_union_member_takes_is_one_problem_at_its_key() -> None:
    data = {"name": "x", "matrix": {"axes": {"n": "worker.replicas"}, "points": [{"n": [1]}]}}
    assert _problems(ExperimentFile, {**data, "job": {}}) == [
        ("matrix.points[0].n", "[1]", "one of: a string; an integer; true or false")
    ]


def test_a_list_of_wrong_items_for_a_union_is_one_problem_not_one_per_item() -> None:
    """``command: str | list[str]`` given a list of numbers: one line, both members."""
    problems = _problems(TrainingJob, {"command": [1, 2]})
    assert ("command", "[1, 2]", "one of: a list whose every item is a string; a string") in (
        problems
    )
    assert [path for path, _, _ in problems].count("command") == 1
    assert not [path for path, _, _ in problems if path.startswith("command[")]


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


def test_errors_of_an_inner_model_are_named_under_the_outer_key() -> None:
    from pydantic import model_validator

    from trainstack.core.base_model import StrictModel, constraint
    from trainstack.core.validation import errors_under

    class Inner(StrictModel):
        size: int = 0

        @model_validator(mode="after")
        def _small(self) -> Inner:
            if self.size > 9:
                raise constraint("size", self.size, "at most 9")
            return self

    class Outer(StrictModel):
        items: list[dict[str, Any]]

        @model_validator(mode="after")
        def _inner(self) -> Outer:
            for index, item in enumerate(self.items):
                try:
                    Inner.model_validate(item)
                except ValidationError as error:
                    raise errors_under(error, f"items[{index}]") from None
            return self

    assert _problems(Outer, {"items": [{"size": 1}, {"size": "2"}]}) == [
        ("items[1].size", '"2"', "an integer")
    ]
    assert _problems(Outer, {"items": [{"size": 10}]}) == [("items[0].size", "10", "at most 9")]


class _Kinds(StrictModel):
    ratio: float = Field(allow_inf_nan=False, description="A finite number.")
    amount: Decimal = Field(max_digits=4, decimal_places=2, description="A price.")
    at: datetime = Field(description="A time.")
    names: set[str] = Field(description="Distinct names.")
    step: int = Field(multiple_of=5, description="A multiple of 5.")
    word: str = Field(description="Checked by a validator.")

    @field_validator("word")
    @classmethod
    def _no_x(cls, word: str) -> str:
        if "x" in word:
            raise ValueError("Words without x")
        return word


def test_no_problem_ends_in_pydantics_own_words() -> None:
    data = {
        "ratio": float("inf"),
        "amount": Decimal("123.456"),
        "at": "yesterday",
        "names": 5,
        "step": 7,
        "word": "xylophone",
    }
    allowed = {path: words for path, _, words in _problems(_Kinds, data)}
    assert allowed == {
        "ratio": "a finite number",
        "amount": "a number of at most 4 digits",
        "at": "a date and time (RFC 3339)",
        "names": "a list of distinct items",
        "step": "a multiple of 5",
        "word": "words without x",
    }
