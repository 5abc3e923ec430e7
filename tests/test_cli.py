"""The trainstack command as users run it: exit statuses and messages.

Help, usage, version and completion run as processes (the program's name, the console
script); a plan's messages run the console's ``main()`` in this process (what a process
prints, 1-3 s of CPU less each: ``tests/hostile`` checks them as processes too)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.project_copy import Outcome, run_in_process
from tests.stack_helpers import REPO, example_config
from trainstack.core.yaml.io import dump_yaml

# Commands run in this process: nothing else a process would print on its stderr.
pytestmark = pytest.mark.usefixtures("stderr_as_a_process_has_it")
TRAINSTACK = [sys.executable, "-m", "trainstack"]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [*TRAINSTACK, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def _project_copy(tmp_path: Path) -> Path:
    shutil.copy(REPO / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    return tmp_path


def _line(path: Path, written: str) -> int:
    """The 1-based line of ``path`` that is ``written`` once stripped (counted by hand)."""
    return [line.strip() for line in path.read_text().splitlines()].index(written) + 1


def test_bad_stack_exits_2_with_one_message_and_writes_nothing(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = -1
    (root / "stacks" / "Pulumi.bad.yaml").write_text(dump_yaml({"config": config}))
    result = run_in_process(["plan", "bad"], root)
    assert result.status == 2
    assert "Traceback" not in result.stderr
    line = _line(root / "stacks" / "Pulumi.bad.yaml", "desiredSize: -1")
    assert result.stderr.strip() == (
        f"error: invalid stack configuration in stacks/Pulumi.bad.yaml:{line}: "
        "trainstack:nodePools[0].desiredSize: found -1; allowed: a number >= 0"
    )
    assert not (root / "build").exists()


def test_unknown_stack_lists_the_known_ones(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    (root / "stacks" / "Pulumi.aiacc.yaml").write_text("config: {}\n")
    result = run_in_process(["plan", "aiac"], root)
    assert result.status == 2
    assert "stack 'aiac' has no configuration file stacks/Pulumi.aiac.yaml" in result.stderr
    assert "stacks in this project: aiacc" in result.stderr


def test_outside_a_project(tmp_path: Path) -> None:
    result = _run(["plan", "aiacc"], tmp_path)
    assert result.returncode == 2
    assert "no Pulumi.yaml" in result.stderr


def test_plan_writes_the_example_stack(tmp_path: Path) -> None:
    result = run_in_process(["plan", "baseline", "--output-dir", str(tmp_path), "--verbose"], REPO)
    assert result.status == 0, result.stderr
    assert (tmp_path / "baseline" / "resources.json").is_file()
    assert "16 GPUs" in result.stdout
    assert "cannot be fetched offline" in " ".join(result.stdout.split())
    # the placeholder of an experiment is listed with the stack's
    words = " ".join(result.stdout.split())
    assert (
        "set before deploying (16): stacks/templates/workload-1-ack.yaml:39: "
        "cluster.create.network.podVswitchIds[0]: <vSwitch ID for the pods' IPs"
    ) in words
    # the populate Job's image and the OSS source's placeholders, named in the data stack
    # that declares them
    assert (
        "stacks/Pulumi.imagenet.yaml:52: trainstack:dataStore.fileSystems[0].populate.image: "
        "<image with ossutil 1.7, coreutils and git> "
        "stacks/Pulumi.imagenet.yaml:55: trainstack:dataStore.fileSystems[0].populate.source."
        "bucket: <OSS bucket holding the ImageNet TFRecords> "
        "stacks/Pulumi.imagenet.yaml:56: trainstack:dataStore.fileSystems[0].populate.source."
        "prefix: <prefix of train/ and validation/ in the bucket, e.g. imagenet/tfrecords> "
        "stacks/Pulumi.imagenet.yaml:57: trainstack:dataStore.fileSystems[0].populate.source."
        "region: <region of the bucket, e.g. cn-beijing>"
    ) in words
    # the dataset's source, layout and verify mode; baseline waits for aiacc's Job
    assert (
        "populated by stack aiacc's Job; this stack's Job wait-populated-imagenet-data waits "
        "for it source: oss oss://<OSS bucket holding the ImageNet TFRecords>/<prefix of "
        "train/ and validation/ in the bucket, e.g. imagenet/tfrecords>/ (<region of the "
        "bucket, e.g. cn-beijing>) -> imagenet/imagenet_data layout: 1024 x imagenet/"
        "imagenet_data/train/train-* layout: 128 x imagenet/imagenet_data/validation/"
        "validation-* layout: 100000000000 to 200000000000 bytes in all, each file non-empty "
        "verify: quick"
    ) in words
    # the init container training-operator adds to PyTorch workers, with its mirror key
    assert (
        "docker.io/alpine:3.10: Kubeflow training-operator v1 1.9.4 init container "
        "init-pytorch of PyTorchJob workers (added by the controller; its flag "
        "--pytorch-init-container-image); by the cluster's nodes; mirror: "
        "trainstack:operators.trainingOperator.images"
    ) in words
    assert words.endswith(
        "experiments/keras-lstm-scaling.yaml:33: job.image.name: <image with "
        "/opt/examples/keras_lstm.py, built FROM horovod/horovod:0.28.1> "
        "experiments/tf-multiworker-mnist.yaml:19: job.image.name: <image built from "
        "images/tf-multiworker-mnist/Dockerfile (FROM tensorflow/tensorflow:2.11.0-gpu)> "
        # the prices come last: only the cost figures need them, `pulumi up` does not
        "stacks/Pulumi.baseline.yaml: trainstack:cost.prices: <pay-as-you-go price of "
        "ecs.g7.2xlarge in cn-beijing, CNY per hour> (for the cost figures only: `pulumi up` "
        "does not need it) stacks/Pulumi.baseline.yaml: trainstack:cost.prices: "
        "<pay-as-you-go price of ecs.gn6e-c12g1.12xlarge in cn-beijing, CNY per hour> "
        "(for the cost figures only: `pulumi up` does not need it) "
        f"plan written to {tmp_path}/baseline"
    )


def test_each_problem_is_its_own_error_line(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = -1
    config["trainstack:nodePools"][0]["gpuModel"] = 7
    (root / "stacks" / "Pulumi.bad.yaml").write_text(dump_yaml({"config": config}))
    outcome = run_in_process(["plan", "bad"], root)
    assert outcome.status == 2
    stack_file = root / "stacks" / "Pulumi.bad.yaml"
    size, model = _line(stack_file, "desiredSize: -1"), _line(stack_file, "gpuModel: 7")
    assert outcome.stderr.splitlines() == [
        f"error: invalid stack configuration in stacks/Pulumi.bad.yaml:{size}: "
        "trainstack:nodePools[0].desiredSize: found -1; allowed: a number >= 0",
        f"error: invalid stack configuration in stacks/Pulumi.bad.yaml:{model}: "
        "trainstack:nodePools[0].gpuModel: found 7; allowed: a string",
    ]


def test_a_bug_is_one_line_without_the_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An internal error may quote an input (a secret): only its type and place are shown."""

    def broken(*_: object, **__: object) -> None:
        raise KeyError("sk-Secret-Value")

    monkeypatch.setattr("trainstack.plan.cli.Project.find", broken)
    outcome = run_in_process(["plan", "aiacc"], tmp_path)
    assert outcome.status == 70
    (line,) = outcome.stderr.splitlines()
    assert re.fullmatch(
        r"error: internal error \(KeyError at test_cli\.py:\d+\); this is a bug in "
        r"trainstack: please report it with the output of TRAINSTACK_DEBUG=1",
        line,
    )
    assert "sk-Secret-Value" not in outcome.stderr
    with pytest.raises(KeyError, match="sk-Secret-Value"):
        run_in_process(["plan", "aiacc"], tmp_path, {"TRAINSTACK_DEBUG": "1"})


def test_operators_lists_the_catalog_with_what_each_api_drops() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "trainstack", "operators"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        "mpiOperator: Kubeflow mpi-operator (MPIJob kubeflow.org/v2beta1 (Horovod/AIACC over MPI))"
        in lines
    )
    assert (
        "    TFJob kubeflow.org/v1: operatorApi arena, Kueue cannot hold it; drops "
        "scheduling.gang.enabled, security.seccompProfile"
    ) in lines
    assert (
        "    MPIJob kubeflow.org/v1alpha1: operatorApi arena, Kueue cannot hold it, ranks over "
        "kubectl-exec; drops runPolicy.activeDeadlineSeconds, runPolicy.ttlSecondsAfterFinished, "
        "scheduling.gang.enabled, security.seccompProfile"
    ) in lines
    assert any(
        line.startswith(
            "    MPIJob kubeflow.org/v2beta1: operatorApi kubeflow, Kueue can hold it, "
            "ranks over ssh"
        )
        for line in lines
    )
    assert "trainer: Kubeflow Trainer v2 (TrainJob trainer.kubeflow.org/v1alpha1 on " in (
        "\n".join(lines)
    )
    assert (
        "    TrainJob trainer.kubeflow.org/v1alpha1: operatorApi kubeflow, Kueue can hold it"
    ) in lines
    # ack-arena's PyTorchJob: no elastic policy, and no job without a Master
    assert any(
        line.startswith("    PyTorchJob kubeflow.org/v1: operatorApi arena")
        and "pytorch.elasticPolicy, pytorch.master.replicas" in line
        for line in lines
    )


def _plan_bad_operators(tmp_path: Path, operators: dict[str, object]) -> Outcome:
    root = _project_copy(tmp_path)
    config = example_config("aiacc")
    config["trainstack:operators"] = operators
    (root / "stacks" / "Pulumi.bad.yaml").write_text(dump_yaml({"config": config}))
    result = run_in_process(["plan", "bad"], root)
    assert result.status == 2
    assert "Traceback" not in result.stderr
    assert not (root / "build").exists()
    return result


def test_an_operator_version_the_catalog_does_not_know(tmp_path: Path) -> None:
    result = _plan_bad_operators(tmp_path, {"arena": {"version": "0.15.3"}})
    line = _line(tmp_path / "stacks" / "Pulumi.bad.yaml", "version: 0.15.3")
    assert result.stderr.strip() == (
        f"error: invalid stack configuration in stacks/Pulumi.bad.yaml:{line}: "
        'trainstack:operators.arena.version: found "0.15.3"; allowed: a version the catalog '
        "knows for ACK ack-arena: 0.13.1, 0.14.1, 0.14.2"
    )


def test_two_owners_of_one_crd_without_documented_coexistence(tmp_path: Path) -> None:
    operators = example_config("aiacc")["trainstack:operators"]
    result = _plan_bad_operators(tmp_path, {**operators, "arena": {"version": "0.14.2"}})
    # `enabled` is not written: the message points at the line of its section, `arena:`.
    line = _line(tmp_path / "stacks" / "Pulumi.bad.yaml", "arena:")
    assert result.stderr.startswith(
        f"error: invalid stack configuration in stacks/Pulumi.bad.yaml:{line}: "
        "trainstack:operators.arena.enabled: found true; allowed: false while "
        "operators.mpiOperator is enabled: both install mpijobs.kubeflow.org"
    )
    assert result.stderr.count("\n") == 1  # one line


def test_version_is_the_packages() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    result = _run(["--version"], REPO)
    assert (result.returncode, result.stdout) == (0, f"trainstack {project['version']}\n")


def test_plan_without_a_stack_lists_the_stacks(tmp_path: Path) -> None:
    root = _project_copy(tmp_path)
    for stack in ("onprem", "aiacc", "baseline"):
        (root / "stacks" / f"Pulumi.{stack}.yaml").write_text("config: {}\n")
    result = _run(["plan"], root)
    assert result.returncode == 0  # listing is not an error
    assert result.stdout.splitlines() == ["aiacc", "baseline", "onprem"]
    assert result.stderr == (
        "plan one with `trainstack plan aiacc`, every one with `trainstack plan --all`\n"
    )


@pytest.mark.parametrize("group", [[], ["results"], ["chart"]])
def test_a_group_alone_lists_its_commands_and_exits_0(group: list[str]) -> None:
    result = _run(group, REPO)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(
        f"Usage: python -m trainstack {' '.join([*group, ''])}[OPTIONS] COMMAND"
    )
    assert "Commands:" in result.stdout


@pytest.mark.parametrize(
    ("words", "offered"),
    [("trainstack plan a", ["aiacc"]), ("trainstack diff aiacc b", ["baseline"])],
)
def test_shell_completion_offers_the_projects_stacks(words: str, offered: list[str]) -> None:
    """Typer's bash completion protocol, as `trainstack --install-completion` sets it up."""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "_TRAINSTACK_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - 1),
    }
    # The console script: completion is keyed by the program's name.
    script = Path(sys.executable).parent / "trainstack"
    result = subprocess.run([script], cwd=REPO, env=env, capture_output=True, text=True)
    assert (result.returncode, result.stdout.split()) == (0, offered)


def test_help_is_plain_and_offers_completion_and_version() -> None:
    result = _run(["--help"], REPO)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    options = [line.strip().split("  ")[0] for line in lines if line.startswith("  -")]
    assert options == ["--version", "--install-completion", "--show-completion", "-h, --help"]
    assert "<bool>" not in result.stdout + _run(["plan", "--help"], REPO).stdout


@pytest.mark.parametrize("group", [[], ["chart"], ["results"]])
def test_command_lists_are_not_cut(group: list[str]) -> None:
    """Click cuts a command's description with "..." past ~45 characters: each command
    has a short help of its own that fits an 80-column list."""
    result = _run([*group, "--help"], REPO)
    listed = result.stdout.split("Commands:\n", 1)[1].splitlines()
    assert listed, result.stdout
    assert [line for line in listed if line.rstrip().endswith("...")] == []
    assert all(len(line) <= 80 for line in listed)
