"""Release names: they name the job and, with a suffix, every pod."""

from __future__ import annotations

from typing import Any

import pytest

from trainstack.core.errors import Problem
from trainstack.training_job import TrainingJob, release_name_problems
from trainstack.training_job.frameworks import framework

BASE = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def job(**values: Any) -> TrainingJob:
    return TrainingJob.model_validate({**BASE, **values})


@pytest.mark.parametrize("name", ["imagenet", "imagenet-tensorflow", "a", "r2d2"])
def test_dns_labels_that_start_with_a_letter_are_fine(name: str) -> None:
    assert release_name_problems(name, job()) == []


@pytest.mark.parametrize("name", ["9lives", "ImageNet", "image_net", "imagenet-", "", "a.b"])
def test_other_names_are_refused_with_the_rule(name: str) -> None:
    (problem,) = release_name_problems(name, job())

    assert problem.path == "release name"
    assert problem.allowed.startswith("lowercase letters, digits and '-', starting with a letter")


def test_the_longest_pod_name_must_fit_in_63_characters() -> None:
    workers = job(worker={"replicas": 100})
    assert framework("mpi").pod_suffixes(workers) == ["-launcher", "-worker-99"]
    assert release_name_problems("a" * 53, workers) == []

    assert release_name_problems("a" * 54, workers) == [
        Problem(
            "release name",
            f'"{"a" * 54}"',
            f"at most 53 characters: the pod name {'a' * 54}-worker-99 must fit in 63",
        )
    ]


def test_suffixes_follow_the_roles_of_each_framework() -> None:
    tf = job(
        framework="tensorflow",
        worker={"replicas": 0},
        tensorflow={"ps": {"replicas": 12}, "evaluator": {"replicas": 1}},
    )
    assert framework("tensorflow").pod_suffixes(tf) == ["-chief-0", "-ps-11", "-evaluator-0"]
    # worker.replicas counts the master: 1 Master + 2 Workers
    assert framework("pytorch").pod_suffixes(job(framework="pytorch", worker={"replicas": 3})) == [
        "-master-0",
        "-worker-1",
    ]
