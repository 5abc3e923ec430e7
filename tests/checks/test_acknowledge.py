"""Acknowledged warnings: shown as such with their reason, never silently stale."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from trainstack.core.errors import ConfigError, ExperimentError
from trainstack.core.yaml.positions import at

FILE = "experiments/00-imagenet-tensorflow.yaml"
RDMA = "NCCL reaches the InfiniBand HCAs through the node's interfaces"
PTRACE = "4 ranks per pod share memory through Open MPI's default copy"


def _acknowledging(*items: dict[str, str], **changes: Any) -> dict[str, Any]:
    experiment = job(**changes)
    experiment["acknowledge"] = list(items)
    return experiment


def _named(name: str) -> dict[str, Any]:
    experiment = job()
    experiment["name"] = name
    return experiment


def test_an_experiment_acknowledges_a_warning_with_its_reason(deploy: Deployer) -> None:
    experiment = _acknowledging({"warning": "openMpiPtrace", "reason": f"  {PTRACE} "})
    deployment = deploy(experiment)
    assert deployment.warnings == ()
    (acknowledged,) = deployment.acknowledged
    assert (acknowledged.warning.check, acknowledged.reason, acknowledged.by) == (
        "openMpiPtrace",
        PTRACE,
        f"{FILE}: acknowledge[0]",
    )
    assert str(acknowledged).endswith(
        f"in env [openMpiPtrace] (acknowledged in {FILE}: acknowledge[0]: {PTRACE})"
    )


def test_a_file_acknowledgement_covers_every_point_of_its_matrix(deploy: Deployer) -> None:
    experiment = _acknowledging({"warning": "openMpiPtrace", "reason": PTRACE})
    experiment["name"] = "scan"
    experiment["matrix"] = {
        "axes": {"gpus": "worker.gpus"},
        "points": [{"gpus": 2}, {"gpus": 4}],
    }
    deployment = deploy(experiment)
    assert deployment.warnings == ()
    assert [a.warning.experiment for a in deployment.acknowledged] == ["scan-2", "scan-4"]


def test_only_the_named_warnings_are_acknowledged(deploy: Deployer) -> None:
    experiment = _acknowledging(
        {"warning": "hostNetwork", "reason": RDMA},
        network={"hostNetwork": True},
        mpi={"sshPort": 2222},
    )
    deployment = deploy(experiment)
    assert [w.check for w in deployment.warnings] == ["openMpiPtrace"]
    assert [a.warning.key for a in deployment.acknowledged] == ["job.network.hostNetwork"]


def test_an_acknowledgement_that_matches_no_warning_is_a_warning(deploy: Deployer) -> None:
    experiment = _acknowledging(
        {"warning": "openMpiPtrace", "reason": PTRACE},
        {"warning": "hostNetwork", "reason": RDMA},
    )
    deployment = deploy(experiment)
    assert [str(w) for w in deployment.warnings] == [
        f"{FILE}: experiment imagenet-tensorflow: acknowledge[1].warning: hostNetwork: no "
        "experiment of this file gets that warning on stack test: remove the acknowledgement "
        "(a warning that only some stacks give is acknowledged in their stack files: "
        "trainstack:acknowledge with experiment) [staleAcknowledgement]"
    ]
    assert [a.warning.check for a in deployment.acknowledged] == ["openMpiPtrace"]


def test_a_stack_acknowledges_the_warning_of_one_experiment(deploy: Deployer) -> None:
    config = stack_config(
        acknowledge=[{"warning": "openMpiPtrace", "experiment": "a", "reason": PTRACE}]
    )
    deployment = deploy(_named("a"), _named("b"), config=config)
    assert [(w.experiment, w.check) for w in deployment.warnings] == [("b", "openMpiPtrace")]
    (acknowledged,) = deployment.acknowledged
    assert (acknowledged.warning.experiment, acknowledged.by) == (
        "a",
        "stacks/Pulumi.test.yaml: trainstack:acknowledge[0]",
    )


def test_a_stack_acknowledgement_without_experiment_covers_the_whole_stack(
    deploy: Deployer,
) -> None:
    config = stack_config(acknowledge=[{"warning": "openMpiPtrace", "reason": PTRACE}])
    deployment = deploy(_named("a"), _named("b"), config=config)
    assert deployment.warnings == ()
    assert [a.warning.experiment for a in deployment.acknowledged] == ["a", "b"]


def test_the_file_acknowledgement_comes_first(deploy: Deployer) -> None:
    experiment = _acknowledging({"warning": "openMpiPtrace", "reason": PTRACE})
    config = stack_config(acknowledge=[{"warning": "openMpiPtrace", "reason": "stack-wide"}])
    (acknowledged,) = deploy(experiment, config=config).acknowledged
    assert (acknowledged.reason, acknowledged.by) == (PTRACE, f"{FILE}: acknowledge[0]")


def test_stale_stack_acknowledgements_are_warnings(deploy: Deployer) -> None:
    config = stack_config(
        acknowledge=[
            {"warning": "hostNetwork", "reason": RDMA},
            {"warning": "privileged", "experiment": "a", "reason": "needs the GPU driver"},
            {"warning": "openMpiPtrace", "experiment": "b", "reason": PTRACE},
        ]
    )
    deployment = deploy(_named("a"), _named("b"), config=config)
    # b's warning is acknowledged; a's stays, with one stale acknowledgement per mismatch
    assert [(w.experiment, w.check) for w in deployment.warnings] == [
        ("a", "openMpiPtrace"),
        ("(stack)", "staleAcknowledgement"),
        ("a", "staleAcknowledgement"),
    ]
    assert [str(w) for w in deployment.warnings[1:]] == [
        "stacks/Pulumi.test.yaml: experiment (stack): trainstack:acknowledge[0].warning: "
        "hostNetwork: the stack gives no such warning: remove the acknowledgement "
        "[staleAcknowledgement]",
        "stacks/Pulumi.test.yaml: experiment a: trainstack:acknowledge[1].warning: privileged: "
        "experiment a gets no such warning: remove the acknowledgement [staleAcknowledgement]",
    ]


def test_a_stack_acknowledgement_of_an_unknown_experiment_is_an_error(
    deploy: Deployer,
) -> None:
    config = stack_config(
        acknowledge=[{"warning": "openMpiPtrace", "experiment": "nope", "reason": PTRACE}]
    )
    with pytest.raises(ConfigError) as caught:
        deploy(_named("a"), _named("b"), config=config)
    assert caught.value.lines(at) == [
        "invalid stack configuration in stacks/Pulumi.test.yaml: trainstack:acknowledge[0]."
        "experiment: found 'nope'; allowed: the name of an experiment or matrix: a, b"
    ]


def test_an_experiment_the_stack_does_not_select_may_be_named(deploy: Deployer) -> None:
    config = stack_config(
        experiments={"select": ["a"]},
        acknowledge=[{"warning": "openMpiPtrace", "experiment": "b", "reason": PTRACE}],
    )
    deployment = deploy(_named("a"), _named("b"), config=config)
    assert [w.check for w in deployment.warnings] == ["openMpiPtrace", "staleAcknowledgement"]


@pytest.mark.parametrize(
    ("item", "key", "allowed"),
    [
        (
            {"warning": "hostNetwrok", "reason": RDMA},
            "acknowledge[0].warning",
            'a warning id (did you mean "hostNetwork"?): ',
        ),
        ({"warning": "staleAcknowledgement", "reason": RDMA}, "acknowledge[0].warning", "borrow"),
        ({"warning": "hostNetwork", "reason": "  "}, "acknowledge[0].reason", "at least 1"),
        ({"warning": "hostNetwork"}, "acknowledge[0].reason", ""),
    ],
)
def test_an_acknowledgement_names_a_known_warning_and_a_reason(
    deploy: Deployer, item: dict[str, str], key: str, allowed: str
) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(_acknowledging(item))
    (line,) = caught.value.lines(at)
    # The file written by _acknowledging: its acknowledge list starts on a line of its own.
    assert re.match(rf"invalid experiment in {re.escape(FILE)}:\d+: {re.escape(key)}: found ", line)
    assert allowed in line
