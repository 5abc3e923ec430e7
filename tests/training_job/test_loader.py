"""Reading values files: every failure is a ValuesError naming the file, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainstack.errors import ValuesError
from trainstack.training_job import load_values, read_values_file


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "values.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_file_loads() -> None:
    path = Path(__file__).resolve().parents[2] / "charts/training-job/ci/mpi-values.yaml"
    job = load_values(path)

    assert (job.framework, job.worker.replicas, job.worker.gpus) == ("mpi", 4, 4)
    assert job.datasets[0].claim_name == "imagenet-data"


def test_invalid_values_list_every_problem_with_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "image: {name: x}\ncommand: c\nworker: {replicas: -1, gpus: x}\n")

    with pytest.raises(ValuesError, match=r"invalid chart values in .*values\.yaml: 2 problems"):
        load_values(path)


def test_broken_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "image: [unclosed\n")
    with pytest.raises(ValuesError, match=r"\(file\): found invalid YAML; allowed: valid YAML"):
        load_values(path)


def test_a_list_is_not_values(tmp_path: Path) -> None:
    path = write(tmp_path, "- framework: mpi\n")
    with pytest.raises(ValuesError, match="found a list; allowed: a mapping of chart values"):
        load_values(path)


def test_an_empty_file_asks_for_the_required_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    with pytest.raises(ValuesError, match="image: found nothing") as raised:
        load_values(path)
    assert [p.path for p in raised.value.problems] == ["image"]


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ValuesError, match=r"\(file\): found unreadable; allowed: a readable file"):
        read_values_file(tmp_path / "absent.yaml")
