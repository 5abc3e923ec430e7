"""Roles: the overrides every role shares, declared once, and the order the chart lists them."""

from __future__ import annotations

import pytest

from trainstack.training_job.frameworks.mpi.settings import Launcher
from trainstack.training_job.frameworks.pytorch import Master
from trainstack.training_job.frameworks.tensorflow import Chief, Evaluator, ParameterServers
from trainstack.training_job.roles import RoleOverrides, Worker

OVERRIDES = (
    "image",
    "resources",
    "node_selector",
    "tolerations",
    "env",
    "restart_policy",
    "readiness_probe",
    "liveness_probe",
    "security",
)
ROLES = (Worker, Launcher, Chief, ParameterServers, Evaluator, Master)


def test_the_overrides_are_declared_once_in_their_base() -> None:
    assert tuple(RoleOverrides.model_fields) == OVERRIDES


@pytest.mark.parametrize("role", ROLES, ids=lambda role: role.__name__)
def test_every_role_takes_the_overrides_with_the_same_words(role: type[RoleOverrides]) -> None:
    assert issubclass(role, RoleOverrides)
    for name in OVERRIDES:
        if (role, name) == (Worker, "restart_policy"):
            continue  # the workers' default differs under MPI, and says so
        assert role.model_fields[name].description == RoleOverrides.model_fields[name].description


@pytest.mark.parametrize(
    "role", [Worker, Chief, ParameterServers, Evaluator, Master], ids=lambda role: role.__name__
)
def test_a_role_lists_its_counts_then_the_overrides_then_its_port(
    role: type[RoleOverrides],
) -> None:
    assert role.documented_order() == ("replicas", "gpus", *OVERRIDES, "port")


def test_the_mpi_launcher_has_only_the_overrides() -> None:
    assert Launcher.documented_order() == OVERRIDES
