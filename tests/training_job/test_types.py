"""Value types of the job: exact patterns, Kubernetes' own bounds."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from trainstack.core.base_model import StrictModel
from trainstack.core.validation import problems_from
from trainstack.training_job.env import EnvMap
from trainstack.training_job.frameworks.pytorch import NprocPerNode
from trainstack.training_job.types import LabelMap, Quantity


class _Values(StrictModel):
    quantity: Quantity | None = None
    labels: LabelMap = {}
    env: EnvMap = {}
    nproc: NprocPerNode | None = None


def _problems(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        _Values.model_validate(data)
    return [(p.path, p.found, p.allowed) for p in problems_from(caught.value, _Values)]


@pytest.mark.parametrize("text", ["8", "500m", "32Gi", "1.5", "1e3", "9223372036854775807"])
def test_quantities(text: str) -> None:
    assert _Values.model_validate({"quantity": text}).quantity == text


def test_integer_quantities_are_kept_as_text() -> None:
    assert _Values.model_validate({"quantity": 8}).quantity == "8"


@pytest.mark.parametrize(
    ("value", "allowed"),
    [
        ("32Gi\n", "a quantity such as 8, 500m or 32Gi"),
        ("9" * 5000, "a quantity such as 8, 500m or 32Gi"),
        ("9223372036854775808", "at most 9223372036854775807 (2^63-1"),
        ("8Ei", "at most 9223372036854775807 (2^63-1"),
        ("1e999999999", "at most 9223372036854775807 (2^63-1"),
        (2**64, "at most 9223372036854775807 (2^63-1"),
        (True, "a string"),
    ],
)
def test_quantities_kubernetes_would_change_are_refused(value: Any, allowed: str) -> None:
    ((path, _, found_allowed),) = _problems({"quantity": value})
    assert path == "quantity"
    assert found_allowed.startswith(allowed)


@pytest.mark.parametrize(
    ("labels", "path"),
    [
        ({"team\n": "x"}, 'labels["team\\n"]'),
        ({"team": "x\n"}, "labels.team"),
        ({"a" * 254 + "/name": "x"}, f'labels["{"a" * 254}/name"]'),
        ({"example.com/" + "n" * 64: "x"}, f'labels["example.com/{"n" * 64}"]'),
    ],
)
def test_label_keys_and_values_are_exact(labels: dict[str, str], path: str) -> None:
    ((found_path, _, _),) = _problems({"labels": labels})
    assert found_path == path


def test_a_long_prefix_within_the_dns_limit_is_a_label_key() -> None:
    key = ".".join(["a" * 63] * 3) + "/name"  # 191 characters of prefix
    assert _Values.model_validate({"labels": {key: "v"}}).labels == {key: "v"}


def test_env_names_are_exact() -> None:
    ((path, found, _),) = _problems({"env": {"NCCL_DEBUG\n": "INFO"}})
    assert (path, found) == ('env["NCCL_DEBUG\\n"]', '"NCCL_DEBUG\\n"')


def test_processes_per_node_are_an_int32() -> None:
    assert _Values.model_validate({"nproc": 2147483647}).nproc == "2147483647"
    ((path, _, allowed),) = _problems({"nproc": 2147483648})
    assert (path, allowed) == ("nproc", "a count of at most 2147483647")


def test_bools_are_not_numbers() -> None:
    class Count(StrictModel):
        count: int

    with pytest.raises(ValidationError) as caught:
        Count.model_validate({"count": True})
    assert [(p.path, p.found, p.allowed) for p in problems_from(caught.value, Count)] == [
        ("count", "true", "an integer")
    ]
