"""Experiment files and matrices: shape, points, names."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from trainstack.core.validation import problems_from
from trainstack.experiments.model import ExperimentFile, Matrix

AXES = {"nodes": "worker.replicas", "gpusPerNode": "worker.gpus"}


def _problems(model: type, data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return [(p.path, p.found, p.allowed) for p in problems_from(caught.value, model)]


def test_points_in_order_with_template_names() -> None:
    matrix = Matrix.model_validate(
        {
            "axes": AXES,
            "points": [{"nodes": 1, "gpusPerNode": 4}, {"nodes": 4, "gpusPerNode": 1}],
            "nameTemplate": "{name}-{nodes}x{gpusPerNode}",
        }
    )
    points = matrix.expanded_points()
    assert points == [{"nodes": 1, "gpusPerNode": 4}, {"nodes": 4, "gpusPerNode": 1}]
    assert [matrix.point_name("keras-lstm", p) for p in points] == [
        "keras-lstm-1x4",
        "keras-lstm-4x1",
    ]


def test_product_varies_the_last_axis_fastest_and_default_names() -> None:
    matrix = Matrix.model_validate(
        {"axes": AXES, "product": {"nodes": [1, 2], "gpusPerNode": [1, 4]}}
    )
    points = matrix.expanded_points()
    assert [matrix.point_name("lstm", p) for p in points] == [
        "lstm-1-1",
        "lstm-1-4",
        "lstm-2-1",
        "lstm-2-4",
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"axes": AXES},
            [("points", "[]", "a list of points, or `product` (not both)")],
        ),
        (
            {"axes": AXES, "points": [{"nodes": 1}]},
            [
                (
                    "points[0]",
                    '{"nodes": 1}',
                    "a value for each axis ['gpusPerNode', 'nodes'], no other",
                )
            ],
        ),
        (
            {"axes": AXES, "product": {"nodes": [1]}},
            [("product", '["nodes"]', "exactly the axes ['gpusPerNode', 'nodes']")],
        ),
        (
            {"axes": {"nodes": "worker replicas"}, "points": [{"nodes": 1}]},
            [
                (
                    "axes.nodes",
                    '"worker replicas"',
                    "a string matching ^[A-Za-z][A-Za-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)*$",
                )
            ],
        ),
    ],
)
def test_invalid_matrix(data: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert _problems(Matrix, data) == expected


def test_name_template_with_an_unknown_placeholder() -> None:
    ((path, found, allowed),) = _problems(
        Matrix,
        {"axes": AXES, "points": [{"nodes": 1, "gpusPerNode": 1}], "nameTemplate": "{name}-{gpus}"},
    )
    assert (path, found) == ("nameTemplate", '"{name}-{gpus}"')
    assert allowed.startswith("text with the placeholders {name}, {nodes}, {gpusPerNode} only")
    assert allowed.endswith("{gpus} is not a placeholder")


@pytest.mark.parametrize(
    ("template", "reason"),
    [
        ("{name}-{nodes[0]}", "{nodes[0]} is not a placeholder"),
        ("{name}-{nodes.real}", "{nodes.real} is not a placeholder"),
        ("{name}-{nodes:d}", "{nodes} has a conversion or format"),
        ("{name}-{nodes!r}", "{nodes} has a conversion or format"),
        ("{name}-{}", "{} is not a placeholder"),
        ("{name}-}", "Single '}' encountered in format string"),
    ],
)
def test_name_templates_are_checked_without_running_them(template: str, reason: str) -> None:
    ((path, found, allowed),) = _problems(
        Matrix,
        {"axes": AXES, "points": [{"nodes": "a", "gpusPerNode": 1}], "nameTemplate": template},
    )
    assert path == "nameTemplate"
    assert allowed.endswith(reason)


def test_a_billion_point_product_is_refused_before_expansion() -> None:
    values = list(range(1000))
    ((path, found, allowed),) = _problems(
        Matrix,
        {
            "axes": {"a": "worker.replicas", "b": "worker.gpus", "c": "mpi.slotsPerWorker"},
            "product": {"a": values, "b": values, "c": values},
        },
    )
    assert (path, found) == ("product", '"1000000000 points (1000 x 1000 x 1000)"')
    assert allowed.startswith("at most 256 points")


def test_experiment_file_requires_name_and_job() -> None:
    assert _problems(ExperimentFile, {"description": "x"}) == [
        ("job", "nothing (the key is missing)", "a value: this key is required"),
        ("name", "nothing (the key is missing)", "a value: this key is required"),
    ]
