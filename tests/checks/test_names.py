"""Experiment names: unique after matrix expansion, valid for Helm and for pod names."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job
from trainstack.core.errors import ExperimentError, PlanCheckError


def test_duplicate_names_after_matrix_expansion(deploy: Deployer) -> None:
    matrix = job()
    matrix["name"] = "imagenet"
    matrix["matrix"] = {
        "axes": {"nodes": "worker.replicas"},
        "points": [{"nodes": 2}, {"nodes": 4}],
        "nameTemplate": "{name}-tensorflow",
    }
    with pytest.raises(PlanCheckError) as caught:
        deploy(job(), matrix)
    message = (
        "experiment imagenet-tensorflow: name: 3 experiments are named 'imagenet-tensorflow' "
        "(from experiments/00-imagenet-tensorflow.yaml, experiments/01-imagenet.yaml); names "
        "must be unique after matrix expansion"
    )
    assert caught.value.failures == (
        f"experiments/00-imagenet-tensorflow.yaml: {message}",
        f"experiments/01-imagenet.yaml: {message}",
    )


def test_name_too_long_for_its_pods(deploy: Deployer) -> None:
    experiment = job(worker={"replicas": 1000, "gpus": 0})
    experiment["name"] = "n" * 53
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    (failure,) = caught.value.failures
    assert failure == (
        f'experiments/00-{"n" * 53}.yaml: experiment {"n" * 53}: name: found "{"n" * 53}"; '
        f"allowed: at most 52 characters: the pod name {'n' * 53}-worker-999 must fit in 63"
    )


def test_matrix_name_longer_than_a_release_name(deploy: Deployer) -> None:
    matrix = job()
    matrix["name"] = "a" * 52
    matrix["matrix"] = {"axes": {"nodes": "worker.replicas"}, "points": [{"nodes": 1}]}
    with pytest.raises(PlanCheckError) as caught:
        deploy(matrix)
    (failure,) = caught.value.failures
    assert failure.endswith(
        f"experiment {'a' * 52}-1: name: 54 characters; a Helm release name has at most 53"
    )


def test_name_must_start_with_a_letter(deploy: Deployer) -> None:
    experiment = job()
    experiment["name"] = "1x4-imagenet"
    with pytest.raises(PlanCheckError, match="starting with a letter"):
        deploy(experiment)


def test_invalid_name_in_the_file(deploy: Deployer) -> None:
    experiment = job()
    experiment["name"] = "ImageNet"
    with pytest.raises(ExperimentError, match=r"experiments/00-ImageNet\.yaml: name: found"):
        deploy(experiment)
