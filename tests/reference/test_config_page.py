"""docs/reference/configuration.md: every key of the models, with its description."""

from __future__ import annotations

from typing import get_origin

from pydantic import BaseModel

from tests.stack_helpers import example_config
from trainstack.config.data_stack import DataStackConfig
from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.experiments.model import ExperimentFile
from trainstack.reference.config_page import FILLED_BY_VALIDATOR, LINKED, configuration_page
from trainstack.reference.words import models_in, without_none

PAGE = configuration_page()


def _keys(model: type[BaseModel], prefix: str = "") -> list[tuple[str, str]]:
    """(path as the page writes it, description) of every field under ``model``."""
    found = []
    for name, field in model.model_fields.items():
        path = f"{prefix}{field.alias or name}"
        found.append((path, field.description or ""))
        annotation = without_none(field.annotation)
        nested = models_in(annotation)
        if get_origin(annotation) is dict or not nested:
            continue
        below = f"{path}[]." if get_origin(annotation) is list else f"{path}."
        for kind in nested:
            # A union's kinds get tables of their own: their rows start afresh.
            found += _keys(kind, below if len(nested) == 1 else "")
    return found


def test_every_key_of_every_model_is_a_row_with_its_description() -> None:
    for top in (StackConfig, DataStackConfig):
        for name, field in top.model_fields.items():
            assert f"### `trainstack:{field.alias or name}`\n\n{field.description}" in PAGE
            nested = models_in(without_none(field.annotation))
            for kind in nested:  # rows of a top-level key start at its own keys
                for path, description in _keys(kind):
                    row = f"| `{path}` | "
                    assert row in PAGE, path
                    assert " ".join(description.split()).replace("|", "\\|") in PAGE, path
    for path, _ in _keys(ExperimentFile):
        assert f"| `{path}` | " in PAGE, path


def test_a_union_gets_a_table_per_kind_named_by_its_discriminator() -> None:
    for title in (
        "#### with `provider: alicloud`",
        "#### with `provider: existing`",
        "#### `source` with `type: nfs`",
        "#### `source` with `type: stack-reference`",
        "#### `component` with `kind: helm`",
    ):
        assert f"\n{title}\n" in PAGE, title


def test_types_defaults_and_constraints_are_the_models() -> None:
    assert "| `gpusPerNode` | integer (>= 0, <= 16) | required |" in PAGE
    assert '| `taintPolicy` | `apply`, `force` or `none` | `"apply"` |' in PAGE
    assert "| `autoscaling` | mapping (keys below) | unset |" in PAGE
    assert "| `accessModes` | list of `ReadWriteMany`, `ReadOnlyMany`, `ReadWriteOnce` or " in PAGE
    assert "| `job` | [the training-job chart's values](job-values.md) | required |" in PAGE


def test_a_default_filled_by_a_validator_is_not_called_required() -> None:
    # NodePool requires taints, but fills them when a file leaves them out.
    assert ("NodePool", "taints") in FILLED_BY_VALIDATOR
    assert NodePool.model_fields["taints"].is_required()
    pool = dict(example_config("aiacc")["trainstack:nodePools"][0])
    pool.pop("taints", None)
    assert NodePool.model_validate(pool).taints  # the GPU taint, by default
    assert "| `taints` | list of mapping (keys below) | by pool (see what it does) |" in PAGE
    assert set(LINKED) == {("ExperimentFile", "job")}
