"""What each pod gets after its namespace's LimitRange, as the API server stores it."""

from __future__ import annotations

from typing import Any

from trainstack.checks.effective_resources import Amount, effective_resources
from trainstack.config.teams import Team
from trainstack.training_job.model import TrainingJob

IMAGE = {"name": "registry.example.com/train:1"}
QUOTA = {"gpu": 16, "cpu": "190", "memory": "1452Gi"}


def _team(defaults: dict[str, Any]) -> Team:
    return Team.model_validate({"name": "vision", "quota": QUOTA, "containerDefaults": defaults})


def _worker(team: Team | None, **worker: Any) -> Any:
    job = TrainingJob.model_validate({"image": IMAGE, "arenaSubmit": True, "worker": worker})
    return {role.role: role for role in effective_resources(job, team)}["worker"]


def test_the_limitrange_fills_what_the_job_leaves_unset() -> None:
    """Workload 1 on team vision: 4 GPUs per worker, nothing else asked."""
    team = _team(
        {"requests": {"cpu": "4", "memory": "16Gi"}, "limits": {"cpu": "12", "memory": "48Gi"}}
    )
    worker = _worker(team, replicas=4, gpus=4)

    assert worker.requests == {
        "cpu": Amount("4", "default"),
        "memory": Amount("16Gi", "default"),
        "nvidia.com/gpu": Amount("4"),
    }
    assert worker.limits == {
        "cpu": Amount("12", "default"),
        "memory": Amount("48Gi", "default"),
        "nvidia.com/gpu": Amount("4"),
    }
    assert worker.added_limits() == ["cpu", "memory"]


def test_a_limit_without_a_request_is_its_request_too() -> None:
    """Kubernetes copies it before the LimitRange is applied: its defaultRequest is not."""
    team = _team({"requests": {"cpu": "4", "memory": "16Gi"}, "limits": {"memory": "48Gi"}})
    worker = _worker(team, resources={"limits": {"memory": "300Gi"}})

    assert worker.requests["memory"] == Amount("300Gi", "limit")
    assert worker.limits["memory"] == Amount("300Gi")
    assert worker.requests["cpu"] == Amount("4", "default")
    assert "cpu" not in worker.limits  # no default CPU limit: none
    assert worker.added_limits() == []


def test_a_default_limit_is_the_default_request_when_none_is_given() -> None:
    worker = _worker(_team({"limits": {"cpu": "8", "memory": "32Gi"}}))
    assert worker.requests == {"cpu": Amount("8", "default"), "memory": Amount("32Gi", "default")}


def test_without_a_team_only_what_the_job_sets() -> None:
    worker = _worker(None, resources={"requests": {"cpu": "500m"}})
    assert (worker.requests, worker.limits) == ({"cpu": Amount("0.5")}, {})
    assert worker.as_json() == {"requests": {"cpu": "0.5"}, "limits": {}}
