"""The walk of the model behind values.yaml, the schema and the README: its field order."""

from __future__ import annotations

import pytest

from trainstack.chart.fields import documented_fields, walk
from trainstack.core.base_model import StrictModel
from trainstack.core.errors import ChartError
from trainstack.training_job.roles import Worker


class _Plain(StrictModel):
    second: int = 2
    first: int = 1


class _Forgetful(StrictModel):
    kept: int = 1
    dropped: int = 2

    @classmethod
    def documented_order(cls) -> tuple[str, ...]:
        return ("kept",)


def test_a_model_without_a_documented_order_keeps_its_declaration_order() -> None:
    assert list(documented_fields(_Plain)) == ["second", "first"]


def test_a_role_is_walked_in_its_documented_order() -> None:
    keys = [node.key for node in walk(Worker)]
    assert keys[:3] == ["replicas", "gpus", "image"] and keys[-1] == "port"


def test_a_documented_order_must_name_every_field_once() -> None:
    with pytest.raises(ChartError, match=r"_Forgetful.documented_order\(\) must name each field"):
        documented_fields(_Forgetful)
