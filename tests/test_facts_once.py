"""A fact the code needs in several places is one constant in the module that owns it:
its value is written once in trainstack/, components/ and the Pulumi program (prose that
mentions it, in help texts and docstrings, is not a value)."""

from __future__ import annotations

import ast

import pytest

from tests.python_source import parse_python
from tests.stack_helpers import REPO

FACTS = {
    "pulumi:pulumi:Stack": "trainstack/plan/files.py",  # STACK_TYPE
    "app.kubernetes.io/managed-by": "trainstack/core/names.py",  # MANAGED_BY
    "charts/training-job": "trainstack/chart/paths.py",  # CHART_DIR
}
SOURCES = sorted(
    [*REPO.glob("trainstack/**/*.py"), *REPO.glob("components/**/*.py"), REPO / "__main__.py"]
)


def _written_in(value: str) -> list[str]:
    """Where a string constant of the code is ``value`` (or ``./value``, a path)."""
    return [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in SOURCES
        for node in ast.walk(parse_python(path))
        if isinstance(node, ast.Constant) and node.value in (value, f"./{value}")
    ]


@pytest.mark.parametrize("value", FACTS)
def test_the_fact_is_written_once_in_its_owning_module(value: str) -> None:
    found = _written_in(value)
    assert [where.partition(":")[0] for where in found] == [FACTS[value]], found
