"""Plan-time checks of a team's Pod Security level: what baseline refuses."""

from __future__ import annotations

from typing import Any

import pytest

from tests.checks.team_cases import (
    STACK,
    failures,
    team_config,
    team_experiment,
    vision,
    workers,
)
from tests.experiment_helpers import Deployer


def test_host_network_in_a_baseline_team(deploy: Deployer) -> None:
    experiment = team_experiment(
        "horovod", worker=workers(1, 4), network={"hostNetwork": True}, mpi={"sshPort": 2222}
    )
    assert failures(deploy, experiment) == [
        "experiments/00-horovod.yaml: experiment horovod: job.network.hostNetwork: true (host "
        "networking), but team vision's namespace vision enforces Pod Security baseline "
        f"(trainstack:teams[0].podSecurity in {STACK}): the API server refuses these pods "
        "when the operator creates them; drop it, or let the team run such pods with "
        "podSecurity: privileged",
    ]
    allowed = team_config(vision(podSecurity="privileged"))
    assert deploy(experiment, config=allowed).experiments[0].team == "vision"


@pytest.mark.parametrize(
    ("changes", "key"),
    [
        ({"security": {"privileged": True}}, "job.security.privileged"),
        ({"security": {"hostPID": True}}, "job.security.hostPID"),
        ({"hostPaths": [{"path": "/mnt/cache", "mountPath": "/cache"}]}, "job.hostPaths"),
        ({"security": {"capabilities": {"add": ["SYS_ADMIN"]}}}, "job.security.capabilities.add"),
        ({"security": {"seccompProfile": "Unconfined"}}, "job.security.seccompProfile"),
        (
            {"mpi": {"launcher": {"security": {"capabilities": {"add": ["SYS_PTRACE"]}}}}},
            "job.mpi.launcher.security.capabilities.add",
        ),
    ],
)
def test_what_baseline_refuses(deploy: Deployer, changes: dict[str, Any], key: str) -> None:
    (failure,) = failures(deploy, team_experiment("risky", worker=workers(1, 1), **changes))
    assert f"experiment risky: {key}: " in failure
    assert "enforces Pod Security baseline" in failure
