"""Acknowledged warnings: shown as such with their reason, never silently stale."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.project_copy import copy_project, run_in_process
from trainstack.checks.acknowledge import STALE, how_to_acknowledge
from trainstack.config.loader import LoadedStack
from trainstack.core.errors import ConfigError, ExperimentError
from trainstack.core.yaml.positions import at

FILE = "experiments/00-imagenet-tensorflow.yaml"
RDMA = "NCCL reaches the InfiniBand HCAs through the node's interfaces"
PTRACE = "4 ranks per pod share memory through Open MPI's default copy"
CAPS, NET, PRIV = (
    "job.security.capabilities.add",
    "job.network.hostNetwork",
    "job.security.privileged",
)
"""The keys the openMpiPtrace, hostNetwork and privileged warnings name."""


def _acknowledging(*items: dict[str, str], **changes: Any) -> dict[str, Any]:
    experiment = job(**changes)
    experiment["acknowledge"] = list(items)
    return experiment


def _named(name: str) -> dict[str, Any]:
    experiment = job()
    experiment["name"] = name
    return experiment


def test_an_experiment_acknowledges_a_warning_with_its_reason(deploy: Deployer) -> None:
    experiment = _acknowledging(
        {
            "warning": "openMpiPtrace",
            "key": CAPS,
            "reason": f"  {PTRACE} ",
        }
    )
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
    experiment = _acknowledging({"warning": "openMpiPtrace", "key": CAPS, "reason": PTRACE})
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
        {"warning": "hostNetwork", "key": NET, "reason": RDMA},
        network={"hostNetwork": True},
        mpi={"sshPort": 2222},
    )
    deployment = deploy(experiment)
    assert [w.check for w in deployment.warnings] == ["openMpiPtrace"]
    assert [a.warning.key for a in deployment.acknowledged] == ["job.network.hostNetwork"]


def test_an_acknowledgement_that_matches_no_warning_is_a_warning(deploy: Deployer) -> None:
    experiment = _acknowledging(
        {"warning": "openMpiPtrace", "key": CAPS, "reason": PTRACE},
        {"warning": "hostNetwork", "key": NET, "reason": RDMA},
    )
    deployment = deploy(experiment)
    assert [str(w) for w in deployment.warnings] == [
        f"{FILE}: experiment imagenet-tensorflow: acknowledge[1].warning: hostNetwork at "
        "job.network.hostNetwork: no experiment of this file gets that warning there on stack "
        "test: remove the acknowledgement "
        "(a warning that only some stacks give is acknowledged in their stack files: "
        "trainstack:acknowledge with experiment) [staleAcknowledgement]"
    ]
    assert [a.warning.check for a in deployment.acknowledged] == ["openMpiPtrace"]


def test_a_stack_acknowledges_the_warning_of_one_experiment(deploy: Deployer) -> None:
    config = stack_config(
        acknowledge=[
            {
                "warning": "openMpiPtrace",
                "key": CAPS,
                "experiment": "a",
                "reason": PTRACE,
            }
        ]
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
    config = stack_config(acknowledge=[{"warning": "openMpiPtrace", "key": CAPS, "reason": PTRACE}])
    deployment = deploy(_named("a"), _named("b"), config=config)
    assert deployment.warnings == ()
    assert [a.warning.experiment for a in deployment.acknowledged] == ["a", "b"]


def test_the_file_acknowledgement_comes_first(deploy: Deployer) -> None:
    experiment = _acknowledging({"warning": "openMpiPtrace", "key": CAPS, "reason": PTRACE})
    config = stack_config(
        acknowledge=[
            {
                "warning": "openMpiPtrace",
                "key": CAPS,
                "reason": "stack-wide",
            }
        ]
    )
    (acknowledged,) = deploy(experiment, config=config).acknowledged
    assert (acknowledged.reason, acknowledged.by) == (PTRACE, f"{FILE}: acknowledge[0]")


def test_stale_stack_acknowledgements_are_warnings(deploy: Deployer) -> None:
    config = stack_config(
        acknowledge=[
            {"warning": "hostNetwork", "key": NET, "reason": RDMA},
            {
                "warning": "privileged",
                "key": PRIV,
                "experiment": "a",
                "reason": "needs the GPU driver",
            },
            {
                "warning": "openMpiPtrace",
                "key": CAPS,
                "experiment": "b",
                "reason": PTRACE,
            },
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
        "hostNetwork at job.network.hostNetwork: the stack gives no such warning: remove the "
        "acknowledgement [staleAcknowledgement]",
        "stacks/Pulumi.test.yaml: experiment a: trainstack:acknowledge[1].warning: privileged "
        "at job.security.privileged: experiment a gets no such warning: remove the "
        "acknowledgement [staleAcknowledgement]",
    ]


def test_a_stack_acknowledgement_of_an_unknown_experiment_is_an_error(
    deploy: Deployer,
) -> None:
    config = stack_config(
        acknowledge=[
            {
                "warning": "openMpiPtrace",
                "key": CAPS,
                "experiment": "nope",
                "reason": PTRACE,
            }
        ]
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
        acknowledge=[
            {
                "warning": "openMpiPtrace",
                "key": CAPS,
                "experiment": "b",
                "reason": PTRACE,
            }
        ],
    )
    deployment = deploy(_named("a"), _named("b"), config=config)
    assert [w.check for w in deployment.warnings] == ["openMpiPtrace", "staleAcknowledgement"]


@pytest.mark.parametrize(
    ("item", "key", "allowed"),
    [
        (
            {"warning": "hostNetwrok", "key": NET, "reason": RDMA},
            "acknowledge[0].warning",
            'a warning id (did you mean "hostNetwork"?): ',
        ),
        (
            {"warning": "staleAcknowledgement", "key": NET, "reason": RDMA},
            "acknowledge[0].warning",
            "borrow",
        ),
        (
            {"warning": "hostNetwork", "key": NET, "reason": "  "},
            "acknowledge[0].reason",
            "at least 1",
        ),
        ({"warning": "hostNetwork", "key": NET}, "acknowledge[0].reason", ""),
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


def test_an_acknowledgement_covers_its_key_only(deploy: Deployer) -> None:
    """Written for one key, it leaves a warning of the same kind at another key shown
    (and is itself stale)."""
    other = {"warning": "openMpiPtrace", "key": "job.env", "reason": PTRACE}
    deployment = deploy(_acknowledging(other))
    assert sorted(w.check for w in deployment.warnings) == [
        "openMpiPtrace",
        "staleAcknowledgement",
    ]
    assert deployment.acknowledged == ()


def test_a_warning_says_where_and_how_to_acknowledge_it(deploy: Deployer) -> None:
    deployment = deploy(job())
    (found,) = deployment.warnings
    stack = deployment.stack
    assert isinstance(stack, LoadedStack)
    hint = how_to_acknowledge(found, stack.config, stack.source)
    assert hint == (
        "to acknowledge it: add {warning: openMpiPtrace, key: job.security.capabilities.add, "
        f"reason: <why it is meant>}} to {FILE}: acknowledge (every stack), or "
        "{warning: openMpiPtrace, experiment: imagenet-tensorflow, key: "
        "job.security.capabilities.add, reason: <why it is meant>} to "
        "stacks/Pulumi.test.yaml: trainstack:acknowledge (this stack)"
    )


def test_a_gpu_quota_acknowledgement_leaves_a_new_cpu_quota_warning_shown(
    tmp_path: Path,
) -> None:
    """Issue 38's case on the example stack: team vision's CPU quota lowered under what its
    experiments need together; the template's acknowledgement of the same kind, written for
    the GPU quota, does not cover it (shared by aiacc and baseline, named where written)."""
    project = copy_project(tmp_path / "project")
    stack = project / "stacks" / "Pulumi.aiacc.yaml"
    text = stack.read_text()
    assert text.count('cpu: "118"') == 1
    stack.write_text(text.replace('cpu: "118"', 'cpu: "60"'))
    ran = run_in_process(["plan", "aiacc", "-o", str(tmp_path / "out"), "--verbose"], project)
    assert ran.status == 0, ran.stderr
    lines = ran.stderr.splitlines()
    (cpu,) = [n for n, line in enumerate(lines) if "trainstack:teams[0].quota.cpu: the 6" in line]
    assert lines[cpu].startswith("warning: stacks/Pulumi.aiacc.yaml:")
    assert lines[cpu].endswith("[queuedTogether]")
    assert lines[cpu + 1] == (
        "  to acknowledge it: add {warning: queuedTogether, key: trainstack:teams[0].quota.cpu, "
        "reason: <why it is meant>} to stacks/Pulumi.aiacc.yaml: trainstack:acknowledge"
    )
    (gpu,) = [line for line in ran.stdout.splitlines() if "quota.gpu: the 6" in line]
    assert gpu.startswith("acknowledged: stacks/Pulumi.aiacc.yaml: experiment (all of team")
    assert "(acknowledged in stacks/templates/workload-1-ack.yaml: acknowledge[1]: " in gpu


def test_a_stack_acknowledgement_after_the_templates_is_numbered_in_its_file(
    deploy: Deployer,
) -> None:
    config = stack_config(
        acknowledge=[{"warning": "hostNetwork", "key": NET, "reason": RDMA}],
    )
    del config["trainstack:cluster"], config["trainstack:nodePools"]
    config["trainstack:clusterTemplate"] = "templates/workload-1-ack.yaml"
    stale = [str(w) for w in deploy(job(), config=config).warnings if w.check == STALE]
    template = "stacks/templates/workload-1-ack.yaml"
    assert [line.split(": ")[:3] for line in stale] == [
        ["stacks/Pulumi.test.yaml", "experiment (stack)", "trainstack:acknowledge[0].warning"],
        [template, "experiment (stack)", "acknowledge[1].warning"],
        [template, "experiment imagenet-tensorflow", "acknowledge[0].warning"],
    ]
