"""ack-arena's MPIJob v1alpha1: what its launcher can be given."""

from __future__ import annotations

from typing import Any

import pytest

from trainstack.core.errors import ValuesError
from trainstack.training_job import validate_values
from trainstack.training_job.frameworks.mpi.arena import arena_rules, claims
from trainstack.training_job.model import TrainingJob

ARENA = {
    "framework": "mpi",
    "operatorApi": "arena",
    "security": {"seccompProfile": None},
    "image": {"name": "registry.example.com/train:1"},
    "command": "sh /data/launch_arena.sh",
}
DATA = [{"claimName": "imagenet-data", "mountPath": "/data"}]
RESULTS = {"claimName": "out", "mountPath": "/results"}


def _job(**values: Any) -> TrainingJob:
    return TrainingJob.model_validate({**ARENA, **values})


def test_claims_are_the_datasets_and_the_results() -> None:
    assert claims(_job()) == 0
    assert claims(_job(mpi={"mountsOnLauncher": True}, datasets=DATA, results=RESULTS)) == 2


@pytest.mark.parametrize(
    "values",
    [
        {"arenaSubmit": True, "datasets": DATA},
        {"mpi": {"mountsOnLauncher": True}, "datasets": DATA, "results": RESULTS},
        {"mpi": {"mountsOnLauncher": False}, "datasets": DATA},
    ],
    ids=["one claim off the launcher", "two claims mounted on it", "one claim, said false"],
)
def test_the_launcher_takes_one_claim_off_or_mounts_them_all(values: dict[str, Any]) -> None:
    assert arena_rules(_job(**values)) == []


def test_two_claims_off_the_launcher_are_refused_naming_the_forks_lines() -> None:
    with pytest.raises(ValuesError) as raised:
        validate_values({**ARENA, "arenaSubmit": True, "datasets": DATA, "results": RESULTS}, "x")

    (problem,) = [str(p) for p in raised.value.problems]
    assert problem.startswith(
        "mpi.mountsOnLauncher: found false; allowed: true with operatorApi arena and 2 claims "
        "(datasets and results) (arena submit's default: arenaSubmit): the fork removes"
    )
    assert "pkg/controllers/mpi_job_controller.go:1037-1051" in problem


def test_the_launcher_needs_a_command_to_read_the_workers_preflight_first() -> None:
    with pytest.raises(ValuesError, match=r"preflight\.enabled: found true; allowed: false"):
        validate_values({**ARENA, "command": None}, "x")
    assert arena_rules(_job(command=None, preflight={"enabled": False})) == []
