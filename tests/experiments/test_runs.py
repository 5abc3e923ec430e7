"""Runs: one release per run, each job labelled and annotated with its run and digest."""

from __future__ import annotations

import json

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.experiments.test_resolve import _matrix
from trainstack.core.errors import ConfigError
from trainstack.experiments.runs import base_values_digest, release_name
from trainstack.plan.model import Plan


def test_digest_is_sha256_of_compact_sorted_json() -> None:
    # printf '{"a":1,"b":[true,null]}' | sha256sum
    expected = "1cc69c7fa23616ca2ec3ee70d24390a6225c8832db8a4c814c7e0e7f942f8668"
    assert base_values_digest({"b": [True, None], "a": 1}) == f"sha256:{expected}"


def test_release_names() -> None:
    assert release_name("imagenet-tensorflow", 1) == "imagenet-tensorflow"
    assert release_name("imagenet-tensorflow", 12) == "imagenet-tensorflow-r12"


def test_one_run_by_default_under_the_experiment_name(deploy: Deployer) -> None:
    (experiment,) = deploy(job()).experiments
    assert (experiment.release_name, experiment.point_name, experiment.run) == (
        "imagenet-tensorflow",
        "imagenet-tensorflow",
        1,
    )
    assert experiment.values["labels"] == {"trainstack.io/experiment": "imagenet-tensorflow"}
    assert experiment.values["annotations"] == {
        "trainstack.io/run": "1",
        "trainstack.io/base-values-digest": base_values_digest(experiment.base_values),
    }
    assert "trainstack.io/run" not in experiment.base_values["annotations"]


def test_count_repeats_and_first_reruns(deploy: Deployer) -> None:
    config = stack_config(experiments={"runs": {"imagenet-tensorflow": {"count": 3}}})
    runs = deploy(job(), config=config).experiments
    assert [(e.release_name, e.run) for e in runs] == [
        ("imagenet-tensorflow", 1),
        ("imagenet-tensorflow-r2", 2),
        ("imagenet-tensorflow-r3", 3),
    ]
    assert len({e.base_digest for e in runs}) == 1
    assert [e.values["annotations"]["trainstack.io/run"] for e in runs] == ["1", "2", "3"]
    config = stack_config(experiments={"runs": {"imagenet-tensorflow": {"first": 4}}})
    (rerun,) = deploy(job(), config=config).experiments
    assert (rerun.release_name, rerun.run) == ("imagenet-tensorflow-r4", 4)


def test_runs_of_a_matrix_apply_to_every_point_and_a_point_wins(deploy: Deployer) -> None:
    runs = {"keras-lstm": {"count": 2}, "keras-lstm-4x1": {"first": 3}}
    config = stack_config(experiments={"runs": runs})
    names = [e.release_name for e in deploy(_matrix(), config=config).experiments]
    assert names == ["keras-lstm-1x4", "keras-lstm-1x4-r2", "keras-lstm-4x1-r3"]


def test_runs_of_an_unknown_experiment(deploy: Deployer) -> None:
    config = stack_config(experiments={"runs": {"imagenet": {"count": 2}}})
    with pytest.raises(
        ConfigError,
        match=r"trainstack:experiments\.runs\.imagenet: found runs of an unknown experiment; "
        r"allowed: the name of an experiment or matrix: imagenet-tensorflow",
    ):
        deploy(job(), config=config)


def test_run_count_is_bounded(deploy: Deployer) -> None:
    config = stack_config(experiments={"runs": {"imagenet-tensorflow": {"count": 101}}})
    with pytest.raises(
        ConfigError,
        match=r"trainstack:experiments\.runs\.imagenet-tensorflow\.count: found 101; "
        "allowed: a number <= 100",
    ):
        deploy(job(), config=config)


def test_rendered_job_carries_the_digest_of_the_plans_base_values(
    example_plans: dict[str, Plan],
) -> None:
    plan = example_plans["aiacc"]
    (experiment,) = [e for e in plan.experiments if e.release_name == "imagenet-tensorflow"]
    (mpijob,) = [
        o.object
        for o in plan.objects
        if o.object["kind"] == "MPIJob" and o.object["metadata"]["name"] == "imagenet-tensorflow"
    ]
    # The digest of experiments.json's baseValues, as the plan writes them.
    written = json.loads(json.dumps(experiment.base_values))
    assert mpijob["metadata"]["annotations"] == {
        "trainstack.io/run": "1",
        "trainstack.io/base-values-digest": base_values_digest(written),
        "requestGPUsOfJobOwner": "16",  # arenaSubmit: what Arena's tools read
    }
    assert mpijob["metadata"]["labels"]["trainstack.io/experiment"] == "imagenet-tensorflow"
    launcher = mpijob["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["metadata"]
    assert launcher["annotations"]["trainstack.io/run"] == "1"
