"""Generated changes to the example stack and job: accepted, or refused at the user's keys.

Whatever value lands on whatever key, loading either succeeds or raises the user error
of its file, whose problems name keys the user wrote (never pydantic's union members
such as ``int``/``str`` or ``AlicloudNasSource``) on one line each.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tests.experiment_helpers import load
from tests.stack_helpers import REPO, example_config
from trainstack.config.stack import StackConfig
from trainstack.core.errors import ConfigError, ValuesError
from trainstack.core.yaml.io import read_helm_yaml
from trainstack.training_job import TrainingJob, validate_values

HOSTILE_VALUES = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([2**31, 2**63, -1, 0, True, False, None, "", "\n", "a\n", "../..", "1e9999"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
MUTATIONS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _locations(value: Any, location: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key and list index of a document, as the path to it."""
    if location:
        yield location
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _locations(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _locations(item, (*location, index))


def _set(document: Any, location: tuple[Any, ...], value: Any) -> None:
    for key in location[:-1]:
        document = document[key]
    document[location[-1]] = value


def _model_names(model: type[BaseModel], seen: set[str]) -> set[str]:
    """The class names of every model reachable from ``model``."""
    if model.__name__ in seen:
        return seen
    seen.add(model.__name__)
    for field in model.model_fields.values():
        for candidate in _types_in(field.annotation):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                _model_names(candidate, seen)
    return seen


def _types_in(annotation: Any) -> Iterator[Any]:
    yield annotation
    for argument in getattr(annotation, "__args__", ()):
        yield from _types_in(argument)


INTERNAL = _model_names(StackConfig, set()) | _model_names(TrainingJob, set())
BRANCHES = {"int", "str", "bool", "float", "list", "dict", "none"}
SEGMENT = re.compile(r'"(?:[^"\\]|\\.)*"|[^.\[\]:]+')


def _written(value: Any) -> set[str]:
    """Every key written in ``value``: a generated key may spell a model's name (``Chief``)."""
    if isinstance(value, dict):
        return {str(key) for key in value} | {k for item in value.values() for k in _written(item)}
    if isinstance(value, list):
        return {key for item in value for key in _written(item)}
    return set()


def _check_paths(paths: list[str], written: set[str]) -> None:
    """No segment of a path is a union member (``int``, ``AlicloudNasSource``...) unless
    the value itself wrote it as a key."""
    for path in paths:
        assert "\n" not in path
        for segment in SEGMENT.findall(path):
            assert segment in written or segment not in BRANCHES | INTERNAL, path
            assert not segment.startswith("function-"), path


AIACC = example_config("aiacc")
STACK_LOCATIONS = [loc for loc in _locations(AIACC) if str(loc[0]).startswith("trainstack:")]


@MUTATIONS
@given(st.sampled_from(STACK_LOCATIONS), HOSTILE_VALUES)
def test_any_value_anywhere_in_a_stack_is_accepted_or_named(
    location: tuple[Any, ...], value: Any
) -> None:
    config = copy.deepcopy(AIACC)
    _set(config, location, value)
    try:
        load(config)
    except ConfigError as error:
        assert all(line.count("\n") == 0 for line in error.lines())
        _check_paths([problem.path for problem in error.problems], _written(value))


JOB = read_helm_yaml(REPO / "charts/training-job/ci/mpi-values.yaml")
JOB_LOCATIONS = list(_locations(JOB))


@MUTATIONS
@given(st.sampled_from(JOB_LOCATIONS), HOSTILE_VALUES)
def test_any_value_anywhere_in_a_job_is_accepted_or_named(
    location: tuple[Any, ...], value: Any
) -> None:
    values = copy.deepcopy(JOB)
    _set(values, location, value)
    try:
        validate_values(values, "values.yaml")
    except ValuesError as error:
        assert all(line.count("\n") == 0 for line in error.lines())
        _check_paths([problem.path for problem in error.problems], _written(value))
