"""Cross-field rules: every broken one reported, with the key to change."""

from __future__ import annotations

from typing import Any

import pytest

from trainstack.core.errors import ValuesError
from trainstack.training_job import (
    TrainingJob,
    Violation,
    total_pods,
    validate_values,
    violations,
)
from trainstack.training_job.rules import mount_paths

BASE = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def job(**overrides: Any) -> TrainingJob:
    """A job built without the rules, to look at what they say."""
    valid = TrainingJob.model_validate(BASE)
    return valid.model_copy(update=overrides)


def test_all_broken_rules_are_reported_together() -> None:
    values = {
        **BASE,
        "worker": {"replicas": 0},
        "network": {"hostNetwork": True},
        "datasets": [
            {"claimName": "a", "mountPath": "/data"},
            {"claimName": "a", "mountPath": "/data/"},
        ],
    }
    with pytest.raises(ValuesError, match="4 problems") as raised:
        validate_values(values, "imagenet.yaml")

    assert [(p.path, p.found) for p in raised.value.problems] == [
        ("datasets[1].claimName", '"a"'),
        ("datasets[1].mountPath", '"/data/"'),
        ("mpi.sshPort", "22"),
        ("worker.replicas", "0"),
    ]
    assert "imagenet.yaml" in str(raised.value)


def test_mpi_needs_a_worker() -> None:
    worker = TrainingJob.model_validate(BASE).worker.model_copy(update={"replicas": 0})
    assert violations(job(worker=worker)) == [
        Violation("worker.replicas", 0, "at least 1 with framework mpi")
    ]
    # PyTorch: worker.replicas counts the master (Arena's --workers), so 0 is none at all
    assert violations(job(worker=worker, framework="pytorch")) == [
        Violation(
            "worker.replicas",
            0,
            "at least 1: it counts the master among the workers, as Arena's --workers "
            "(pytorch.countMasterAsWorker, true by default); a master alone is 1",
        )
    ]
    besides = TrainingJob.model_validate(BASE).pytorch.model_copy(
        update={"count_master_as_worker": False}
    )
    assert violations(job(worker=worker, framework="pytorch", pytorch=besides)) == []


def test_host_network_moves_sshd_and_only_open_mpi_can_follow() -> None:
    values = {**BASE, "network": {"hostNetwork": True}, "mpi": {"sshPort": 2222}}
    assert violations(TrainingJob.model_validate(values)) == []

    with pytest.raises(ValuesError, match=r"mpi\.implementation: found \"MPICH\"") as raised:
        validate_values({**values, "mpi": {"sshPort": 2222, "implementation": "MPICH"}}, "v")
    (problem,) = raised.value.problems
    assert problem.path == "mpi.implementation"
    assert problem.allowed.startswith("OpenMPI when mpi.sshPort is not 22")


def test_host_network_is_fine_for_tensorflow_and_pytorch() -> None:
    for framework in ("tensorflow", "pytorch"):
        values = {**BASE, "framework": framework, "network": {"hostNetwork": True}}
        assert violations(TrainingJob.model_validate(values)) == []


def test_reserved_paths_come_first_and_depend_on_the_framework() -> None:
    mpi = TrainingJob.model_validate({**BASE, "results": {"claimName": "out"}})
    assert mount_paths(mpi) == [
        ("shm.enabled", "/dev/shm"),
        ("mpi.sshAuthMountPath", "/root/.ssh"),
        ("the mpi-operator's hostfile", "/etc/mpi"),
        ("the ranks' env file", "/etc/trainstack/mpi"),
        ("results.mountPath", "/results"),
    ]
    pytorch = TrainingJob.model_validate(
        {**BASE, "framework": "pytorch", "shm": {"enabled": False}}
    )
    assert mount_paths(pytorch) == []


@pytest.mark.parametrize(
    ("values", "pods"),
    [
        ({"worker": {"replicas": 4}}, 5),
        ({"framework": "pytorch", "worker": {"replicas": 1}}, 1),
        ({"framework": "pytorch", "worker": {"replicas": 2}}, 2),
        (
            {
                "framework": "pytorch",
                "worker": {"replicas": 2},
                "pytorch": {"countMasterAsWorker": False},
            },
            3,
        ),
        (
            {
                "framework": "pytorch",
                "worker": {"replicas": 2},
                "pytorch": {"master": {"replicas": 0}},
            },
            2,
        ),
        (
            {
                "framework": "tensorflow",
                "worker": {"replicas": 3},
                "tensorflow": {"ps": {"replicas": 2}, "evaluator": {"replicas": 1}},
            },
            7,
        ),
    ],
)
def test_total_pods(values: dict[str, Any], pods: int) -> None:
    assert total_pods(TrainingJob.model_validate({**BASE, **values})) == pods


def test_a_gang_cannot_be_larger_than_the_job() -> None:
    values = {**BASE, "worker": {"replicas": 2}, "scheduling": {"gang": {"enabled": True}}}
    assert violations(TrainingJob.model_validate(values)) == []

    values["scheduling"] = {"gang": {"enabled": True, "minAvailable": 4}}
    with pytest.raises(
        ValuesError, match=r"scheduling\.gang\.minAvailable: found 4; allowed: at most 3"
    ):
        validate_values(values, "v")
