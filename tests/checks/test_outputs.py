"""unbackedWrite: a job writing its model where no volume is mounted is warned about."""

from __future__ import annotations

from typing import Any

import pytest

from tests.experiment_helpers import Deployer, job
from tests.stack_helpers import REPO
from trainstack.checks import Finding
from trainstack.core.yaml.io import read_yaml

FILE = "experiments/00-imagenet-tensorflow.yaml"
LOST = (
    ": what it writes is lost with the pods; mount a claim there (job.results {claimName, "
    "mountPath}, a dataset of the stack) or write under a mounted path"
)
DATA = "the job mounts no writable volume"
"""Workload 1's job mounts ImageNet's claim at /data read-only (a dataset's default)."""
WRITABLE_DATA = [{"claimName": "imagenet-data", "mountPath": "/data", "readOnly": False}]
"""ImageNet's claim at /data, made writable by the experiment."""


def _unbacked(findings: tuple[Finding, ...]) -> list[tuple[str, str]]:
    return [(f.key, f.message) for f in findings if f.check == "unbackedWrite"]


def _message(option: str, path: str, mounted: str = DATA) -> str:
    written = f"{option} {path}: the job writes there, but no volume is mounted at or above it"
    return f"{written} ({mounted}){LOST}"


@pytest.mark.parametrize(
    ("changes", "key", "option", "path"),
    [
        (
            {"command": "python train.py --model-dir /models/run1"},
            "job.command",
            "--model-dir",
            "/models/run1",
        ),
        (
            {"command": "cd /w && python t.py --model_dir=/models/a/../b/"},
            "job.command",
            "--model_dir",
            "/models/b",
        ),
        (
            {"command": ["python", "t.py", "-train_dir", "/tmp/train"]},
            "job.command[2]",
            "-train_dir",
            "/tmp/train",
        ),
        ({"args": ["--epochs", "5", "--Output-Dir=/out"]}, "job.args[2]", "--Output-Dir", "/out"),
        # the dataset at /data is read-only unless the experiment says readOnly: false
        (
            {"command": "python train.py --model-dir /data/models/run1"},
            "job.command",
            "--model-dir",
            "/data/models/run1",
        ),
        # /data2 is not under /data; the option is quoted as written
        (
            {"args": ["--checkpoint_dir", "/data2/ckpt"]},
            "job.args[0]",
            "--checkpoint_dir",
            "/data2/ckpt",
        ),
    ],
)
def test_an_output_directory_no_volume_backs_is_warned_about(
    deploy: Deployer, changes: dict[str, Any], key: str, option: str, path: str
) -> None:
    deployment = deploy(job(**changes))
    assert _unbacked(deployment.warnings) == [(key, _message(option, path))]
    (found,) = [w for w in deployment.warnings if w.check == "unbackedWrite"]
    assert (found.source, found.experiment) == (FILE, "imagenet-tensorflow")


@pytest.mark.parametrize(
    "changes",
    [
        {"command": "python train.py --model-dir /data/models/run1", "datasets": WRITABLE_DATA},
        {"command": "python train.py --model-dir=/data", "datasets": WRITABLE_DATA},
        {
            "args": ["--output_dir", "/results/run1"],
            "results": {"claimName": "imagenet-data", "mountPath": "/results"},
        },
        {
            "args": ["--logdir", "/var/log/tb"],
            "hostPaths": [{"path": "/mnt/logs", "mountPath": "/var/log", "readOnly": False}],
        },
        # Not known offline: relative paths and shell expansions.
        {"command": "python train.py --model-dir models/run1"},
        {"command": "python train.py --model-dir $HOME/models"},
        {"command": "python train.py --model-dir `pwd`/models"},
        # Not an output option, or no value.
        {"command": "python train.py --data-dir /imagenet"},
        {"args": ["--model-dir"]},
    ],
)
def test_a_path_under_a_writable_mount_or_not_known_offline_is_not(
    deploy: Deployer, changes: dict[str, Any]
) -> None:
    assert _unbacked(deploy(job(**changes)).warnings) == []


def test_read_only_volumes_do_not_back_a_write(deploy: Deployer) -> None:
    experiment = job(
        command="python train.py --save-dir /data/models",
        datasets=[{"claimName": "imagenet-data", "mountPath": "/data", "readOnly": True}],
        hostPaths=[{"path": "/mnt/models", "mountPath": "/data/models"}],
    )
    assert _unbacked(deploy(experiment).warnings) == [
        (
            "job.command",
            _message("--save-dir", "/data/models", "the job mounts no writable volume"),
        )
    ]


def test_the_workload_3_tfjob_without_its_results_volume_is_warned_about(
    deploy: Deployer,
) -> None:
    """The issue's case: tf-multiworker-mnist saving its model with no volume mounted."""
    experiment = read_yaml(REPO / "experiments" / "tf-multiworker-mnist.yaml")
    experiment.pop("team")
    del experiment["job"]["results"]
    nothing = "the job mounts no writable volume"
    assert _unbacked(deploy(experiment).warnings) == [
        ("job.command[2]", _message("--saved_model_dir", "/train/saved_model", nothing)),
        ("job.command[4]", _message("--checkpoint_dir", "/train/checkpoint", nothing)),
    ]


def test_the_warning_can_be_acknowledged(deploy: Deployer) -> None:
    experiment = job(args=["--model-dir", "/scratch/model"])
    experiment["acknowledge"] = [
        {"warning": "unbackedWrite", "key": "job.args[0]", "reason": "a smoke test"}
    ]
    deployment = deploy(experiment)
    assert _unbacked(deployment.warnings) == []
    (acknowledged,) = deployment.acknowledged
    assert (acknowledged.warning.key, acknowledged.reason, acknowledged.by) == (
        "job.args[0]",
        "a smoke test",
        f"{FILE}: acknowledge[0]",
    )
