"""values.schema.json: Helm enforces it, and it rejects what the model rejects."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import helm_python
import pytest

from tests.chart.bad_values import BAD_FIELD_VALUES
from tests.chart.jobs import CHART_DIR, CI_VALUES, job_values
from trainstack.chart.schema import schema_text
from trainstack.core.errors import ValuesError
from trainstack.training_job import read_values_file, validate_values

SCHEMA = json.loads((CHART_DIR / "values.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def chart() -> helm_python.Chart:
    return helm_python.Chart.load(CHART_DIR)


def test_helm_rejects_bad_values_with_its_own_message(chart: helm_python.Chart) -> None:
    with pytest.raises(
        helm_python.HelmValuesError, match=r"at '/worker/replicas': got string, want integer"
    ):
        chart.validate_schema(job_values("mpi", worker={"replicas": "two"}))
    with pytest.raises(
        helm_python.HelmValuesError, match=r"additional properties 'workers' not allowed"
    ):
        chart.validate_schema(job_values("mpi", workers=4))
    with pytest.raises(
        helm_python.HelmValuesError,
        match=r"at '/framework': value must be one of 'mpi', 'tensorflow', 'pytorch', 'trainjob'",
    ):
        chart.validate_schema(job_values("jax"))


def test_only_the_image_has_no_usable_default(chart: helm_python.Chart) -> None:
    with pytest.raises(helm_python.HelmValuesError, match="minLength: got 0, want 1") as raised:
        chart.validate_schema({})
    failing = {line.split("'")[1] for line in str(raised.value).splitlines() if "at '" in line}
    assert failing == {"/image/name"}
    # no command: the image's ENTRYPOINT runs
    chart.validate_schema({"image": {"name": "x"}})


@pytest.mark.parametrize("case", sorted(BAD_FIELD_VALUES))
def test_model_and_schema_reject_the_same_values(chart: helm_python.Chart, case: str) -> None:
    values = BAD_FIELD_VALUES[case]
    with pytest.raises(ValuesError, match="invalid chart values in test"):
        validate_values(values, "test")
    with pytest.raises(helm_python.HelmValuesError, match="training-job"):
        chart.validate_schema(values)


@pytest.mark.parametrize("path", CI_VALUES, ids=lambda path: path.name)
def test_model_and_schema_accept_the_example_values(chart: helm_python.Chart, path: Any) -> None:
    values = read_values_file(path)
    validate_values(values, path)
    chart.validate_schema(values)


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            yield node
        for key, value in node.items():
            if key not in ("if", "then", "not"):  # conditions between keys, not objects
                yield from _objects(value)
    elif isinstance(node, list):
        for item in node:
            yield from _objects(item)


def test_every_object_is_closed_and_numbers_are_integers() -> None:
    objects = list(_objects(SCHEMA))
    assert len(objects) > 40
    for node in objects:
        assert "additionalProperties" in node, node.get("description")
        if "properties" in node:
            assert node["additionalProperties"] is False, node.get("description")
    assert '"number"' not in json.dumps(SCHEMA)


def test_keys_with_a_default_in_values_yaml_are_required() -> None:
    worker = SCHEMA["properties"]["worker"]
    assert worker["required"] == [
        "replicas",
        "gpus",
        "resources",
        "nodeSelector",
        "tolerations",
        "env",
        "security",
    ]
    # null defaults vanish when Helm merges values, so they cannot be required
    assert "image" not in worker["required"]
    assert SCHEMA["properties"]["mpi"]["properties"]["sshPort"]["minimum"] == 1
    assert SCHEMA["properties"]["framework"]["enum"] == [
        "mpi",
        "tensorflow",
        "pytorch",
        "trainjob",
    ]
    # objects in lists are not merged: only what the model requires is required
    dataset = SCHEMA["properties"]["datasets"]["items"]
    assert dataset["required"] == ["claimName", "mountPath"]


def test_the_schema_file_is_sorted_and_ends_with_a_newline() -> None:
    text = schema_text()
    assert text.endswith("}\n")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert text == schema_text()
