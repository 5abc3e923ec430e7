"""Reading values files: every failure is a ValuesError naming the file, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainstack.core.errors import InputLimitError, ValuesError, YamlSyntaxError
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
    with pytest.raises(YamlSyntaxError, match=r"\(line 2, column 1\): found invalid YAML \("):
        load_values(path)


def test_a_list_is_not_values(tmp_path: Path) -> None:
    path = write(tmp_path, "- framework: mpi\n")
    with pytest.raises(
        YamlSyntaxError, match="found a list; allowed: a mapping of keys and values"
    ):
        load_values(path)


def test_values_mean_what_they_mean_to_helm(tmp_path: Path) -> None:
    """`helm install -f` reads YAML 1.1: yes is true and 0755 is octal; so does trainstack."""
    path = write(
        tmp_path,
        "image: {name: cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0}\n"
        "labels: {gpu_node: yes}\nworker: {replicas: 0755}\n",
    )
    values = read_values_file(path)
    assert values["image"] == {
        "name": "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"
    }
    assert values["labels"] == {"gpu_node": True}
    assert values["worker"] == {"replicas": 7 * 64 + 5 * 8 + 5}


def test_an_empty_file_asks_for_the_required_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    with pytest.raises(ValuesError, match="image: found nothing") as raised:
        load_values(path)
    assert [p.path for p in raised.value.problems] == ["image"]


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputLimitError, match=r"\(file\): found unreadable \(No such file"):
        read_values_file(tmp_path / "absent.yaml")
