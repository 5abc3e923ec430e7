"""Which experiments a stack runs: names and patterns, exclusions, and every file checked."""

from __future__ import annotations

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.core.errors import ConfigError, ExperimentError, InvalidExperimentsError


def _named(name: str, **changes: object) -> dict:
    experiment = job(**changes)
    experiment["name"] = name
    return experiment


def _releases(deploy: Deployer, *experiments: dict, **selection: object) -> list[str]:
    config = stack_config(experiments=selection)
    return [e.release_name for e in deploy(*experiments, config=config).experiments]


def test_a_pattern_selects_experiments_added_later(deploy: Deployer) -> None:
    files = [_named("imagenet-tensorflow"), _named("mnist-onprem")]
    assert _releases(deploy, *files, select=["*"], exclude=["*-onprem"]) == ["imagenet-tensorflow"]
    # a new file: selected by the same rule, no edit of the stack
    files.append(_named("imagenet-pytorch"))
    assert _releases(deploy, *files, select=["*"], exclude=["*-onprem"]) == [
        "imagenet-pytorch",
        "imagenet-tensorflow",
    ]
    assert _releases(deploy, *files, select=["imagenet-[p]*"]) == ["imagenet-pytorch"]
    assert _releases(deploy, *files, select=["*-onprem"]) == ["mnist-onprem"]


def test_exclude_without_select_leaves_out_of_every_experiment(deploy: Deployer) -> None:
    files = [_named("imagenet-tensorflow"), _named("mnist-onprem")]
    assert _releases(deploy, *files, exclude=["mnist-onprem"]) == ["imagenet-tensorflow"]


def test_a_pattern_may_match_nothing_but_a_name_must_exist(deploy: Deployer) -> None:
    assert _releases(deploy, job(), select=["*"], exclude=["*-onprem"]) == ["imagenet-tensorflow"]
    config = stack_config(experiments={"exclude": ["imagenet-tensorflw"]})
    with pytest.raises(ConfigError, match=r"exclude\[0\]: found 'imagenet-tensorflw'") as caught:
        deploy(job(), config=config)
    (problem,) = caught.value.problems
    assert problem.allowed == (
        "the name of an experiment or matrix: imagenet-tensorflow (or a glob pattern, e.g. '*')"
    )


def test_a_selector_is_a_name_or_a_glob(deploy: Deployer) -> None:
    config = stack_config(experiments={"select": ["Imagenet/*"]})
    with pytest.raises(
        ConfigError,
        match=r'experiments\.select\[0\]: found "Imagenet/\*"; allowed: an experiment name',
    ):
        deploy(job(), config=config)


def test_an_experiment_the_stack_does_not_select_is_checked_all_the_same(
    deploy: Deployer,
) -> None:
    # The issue's `printf 'name: typo\njob:\n  framwork: mpi\n  worker: {replicas: -3}\n'`
    typo = {"name": "typo", "job": {"framwork": "mpi", "worker": {"replicas": -3}}}
    config = stack_config(experiments={"select": ["imagenet-tensorflow"]})
    with pytest.raises(ExperimentError) as caught:
        deploy(job(), typo, config=config)
    error = caught.value
    assert error.source == "experiments/01-typo.yaml"
    found = {(p.path, p.found) for p in error.problems}
    assert ("job.framwork", 'unknown key "framwork" (did you mean "framework"?)') in found
    assert ("job.worker.replicas", "-3") in found


def test_every_point_of_an_unselected_matrix_is_checked(deploy: Deployer) -> None:
    scan = _named("scan")
    scan["matrix"] = {"axes": {"n": "worker.replicas"}, "product": {"n": [-1, -2]}}
    config = stack_config(experiments={"select": ["imagenet-tensorflow"]})
    with pytest.raises(InvalidExperimentsError) as caught:
        deploy(job(), scan, config=config)
    assert [(e.source, e.problems[0].found) for e in caught.value.errors] == [
        ("experiments/01-scan.yaml (matrix point scan--1)", "-1"),
        ("experiments/01-scan.yaml (matrix point scan--2)", "-2"),
    ]
