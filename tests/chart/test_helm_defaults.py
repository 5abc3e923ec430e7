"""`helm show values training-job > v.yaml && helm install -f v.yaml`: the chart's own
defaults, passed back as values (explicit nulls included), render objects the API server
accepts. A null in values means "unset" to the templates, as it does to trainstack."""

from __future__ import annotations

from typing import Any

import helm_python
import pytest

from tests.chart.jobs import CHART_DIR
from tests.conformance import crd_dir, validate_objects
from trainstack.chart.render import parse_manifests, render_manifests
from trainstack.training_job.frameworks import frameworks

SHOWN = helm_python.values_from_yaml((CHART_DIR / "values.yaml").read_text(encoding="utf-8"))


def _nulls(node: Any, path: str = "") -> list[str]:
    if node is None:
        return [path]
    if isinstance(node, dict):
        return [found for key, value in node.items() for found in _nulls(value, f"{path}.{key}")]
    if isinstance(node, list):
        return [found for i, value in enumerate(node) for found in _nulls(value, f"{path}[{i}]")]
    return []


def test_the_shown_values_hold_explicit_nulls() -> None:
    # what makes the case worth testing: Helm receives these keys as null
    assert SHOWN["worker"]["resources"]["requests"] == {"cpu": None, "memory": None}
    assert SHOWN["command"] is None


@pytest.mark.parametrize("framework", [spec.name for spec in frameworks()])
@pytest.mark.parametrize("command", [None, "python train.py"], ids=["image-entrypoint", "command"])
def test_the_charts_own_values_render_conforming_objects(
    framework: str, command: str | None
) -> None:
    values = {**SHOWN, "framework": framework, "command": command}
    if framework == "trainjob" and command is None:
        # the preflight runs before a TrainJob's command: without one, it must be off
        values["preflight"] = {**SHOWN["preflight"], "enabled": False}
    values["image"] = {**SHOWN["image"], "name": "registry.example.com/team/train:1.0"}
    # Helm's schema check included, as `helm install` runs it
    objects = parse_manifests(
        render_manifests(values, release="defaults", namespace="team", chart_dir=CHART_DIR)
    )

    assert [obj["kind"] for obj in objects] == [
        spec.kind for spec in frameworks() if spec.name == framework
    ]
    assert _nulls(objects[0]) == []
    assert validate_objects(objects, crd_dir()) == 1
