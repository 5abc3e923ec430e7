"""values.yaml and README.md: every value documented once, defaults exactly the model's."""

from __future__ import annotations

import re
from typing import Any

import helm_python
from pydantic import BaseModel

from tests.chart.jobs import CHART_DIR
from trainstack.training_job import SECTIONS, TrainingJob, validate_values

VALUES_TEXT = (CHART_DIR / "values.yaml").read_text(encoding="utf-8")
README_TEXT = (CHART_DIR / "README.md").read_text(encoding="utf-8")


def _leaf_paths(model: type[BaseModel], prefix: str = "") -> list[str]:
    paths: list[str] = []
    for name, field in model.model_fields.items():
        path = f"{prefix}{field.alias or name}"
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            paths += _leaf_paths(annotation, f"{path}.")
        else:
            paths.append(path)
    return paths


def _model_defaults() -> dict[str, Any]:
    """The model's defaults, with the required image left empty as in values.yaml."""
    job = validate_values({"image": {"name": "placeholder"}}, "test")
    defaults = job.model_dump(mode="json", by_alias=True)
    defaults["image"]["name"] = ""
    return defaults


def test_helm_reads_values_yaml_as_the_models_defaults() -> None:
    assert helm_python.values_from_yaml(VALUES_TEXT) == _model_defaults()


def test_every_value_has_exactly_one_param_line() -> None:
    params = re.findall(r"(?m)^\s*## @param (\S+) \S", VALUES_TEXT)

    assert sorted(params) == sorted(_leaf_paths(TrainingJob))
    assert len(params) == len(set(params))


def test_sections_group_the_top_level_keys_in_order() -> None:
    sections = re.findall(r"(?m)^## @section (.+)$", VALUES_TEXT)
    assert sections == list(SECTIONS)
    top_level = re.findall(r"(?m)^([A-Za-z]+):", VALUES_TEXT)
    assert top_level == [key for keys in SECTIONS.values() for key in keys]


def _empty_collections(values: Any, prefix: str = "") -> list[str]:
    found: list[str] = []
    for key, value in values.items():
        if value in ([], {}):
            found.append(f"{prefix}{key}")
        elif isinstance(value, dict):
            found += _empty_collections(value, f"{prefix}{key}.")
    return found


def test_every_empty_collection_shows_an_example() -> None:
    empty = _empty_collections(_model_defaults())
    assert len(empty) >= 10
    for path in empty:
        key = path.rsplit(".", 1)[-1]
        comment = VALUES_TEXT.split(f"## @param {path} ", 1)[1].split(f"{key}: ", 1)[0]
        assert "## e.g." in comment, path


def test_the_tolerations_example_is_yaml_in_comments() -> None:
    block = VALUES_TEXT.split("## @param scheduling.tolerations ", 1)[1].split("tolerations: []")[0]
    assert '  ## e.g.\n  ## tolerations:\n  ##   - key: "nvidia.com/gpu"\n' in block
    assert VALUES_TEXT.count("## e.g.") >= 10


def test_list_items_document_their_keys() -> None:
    assert "## @extra datasets[].claimName Name of the PersistentVolumeClaim." in VALUES_TEXT
    assert (
        "| `datasets[].readOnly` | Mount read-only: a shared dataset is read, and a job that "
        "wrote to it would change what the other stack's runs read. false: the job may write "
        "there. | `true` |"
    ) in README_TEXT


def test_the_readme_has_a_row_per_value_with_its_default() -> None:
    for path in _leaf_paths(TrainingJob):
        assert f"| `{path}` |" in README_TEXT, path
    assert "| `mpi.sshPort` | Port of the workers' sshd." in README_TEXT
    assert README_TEXT.count("| `shm.sizeLimit` |") == 1
    assert "| `2Gi` |" not in README_TEXT and '| `"2Gi"` |' in README_TEXT
