"""The TrainingJob model: defaults, descriptions, structured errors, composability."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError

from trainstack.core.errors import Problem, ValuesError
from trainstack.training_job import TrainingJob, validate_values
from trainstack.training_job.defaults import (
    backoff_limit,
    clean_pod_policy,
    pull_policy,
    restart_policy,
    working_dir,
)
from trainstack.training_job.frameworks.mpi.settings import mounts_on_launcher

MINIMAL = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def _models(
    model: type[BaseModel], seen: set[type[BaseModel]] | None = None
) -> set[type[BaseModel]]:
    """Every model reachable from ``model`` through fields, lists and optionals."""
    seen = set() if seen is None else seen
    seen.add(model)
    for field in model.model_fields.values():
        stack: list[Any] = [field.annotation]
        while stack:
            annotation = stack.pop()
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                if annotation not in seen:
                    _models(annotation, seen)
            else:
                stack.extend(get_args(annotation))
    return seen


def problems(values: dict[str, Any]) -> list[Problem]:
    with pytest.raises(ValuesError, match="invalid chart values in values.yaml") as raised:
        validate_values(values, "values.yaml")
    return list(raised.value.problems)


def test_every_field_of_every_model_has_a_description() -> None:
    models = _models(TrainingJob)
    assert len(models) >= 20
    missing = [
        f"{model.__name__}.{name}"
        for model in models
        for name, field in model.model_fields.items()
        if not (field.description and field.description.strip())
    ]
    assert missing == []
    assert all(model.__doc__ for model in models)


def test_defaults_are_a_small_safe_mpi_job() -> None:
    job = TrainingJob.model_validate(MINIMAL)

    assert job.framework == "mpi"
    assert (job.worker.replicas, job.worker.gpus) == (1, 0)
    assert (job.shm.enabled, job.shm.size_limit) == (True, "2Gi")
    assert mounts_on_launcher(job) is True
    assert job.mpi.ssh_port == 22
    assert job.mpi.worker_command == ["/usr/sbin/sshd", "-De"]
    assert pull_policy(job) == "IfNotPresent"
    assert job.shell == "sh"
    assert clean_pod_policy(job) == "Running"
    assert restart_policy(job, "launcher", None) == "Never"
    assert (working_dir(job), backoff_limit(job)) == (None, None)
    assert job.run_policy.ttl_seconds_after_finished is None
    security = job.security
    assert not (security.privileged or security.host_ipc or security.host_pid)
    assert not (security.allow_privilege_escalation or security.automount_service_account_token)
    assert job.network.host_network is False
    assert job.host_paths == [] and job.datasets == []
    assert job.results.claim_name is None


def test_a_missing_image_is_named_and_the_command_may_be_left_to_the_image() -> None:
    assert problems({}) == [
        Problem("image", "nothing (the key is missing)", "a value: this key is required"),
    ]
    assert TrainingJob.model_validate({"image": {"name": "x"}}).command is None


def test_invalid_values_name_path_found_and_allowed() -> None:
    found = problems(
        {
            **MINIMAL,
            "framework": "jax",
            "worker": {"replicas": "two", "gpus": -1},
            "datasets": [{"claimName": "data", "mountPath": "data"}],
            "mpi": {"sshPort": 0},
        }
    )

    assert found == [
        Problem(
            "datasets[0].mountPath",
            '"data"',
            "an absolute path (starting with /, no control characters)",
        ),
        Problem("framework", '"jax"', "one of 'mpi', 'tensorflow', 'pytorch' or 'trainjob'"),
        Problem("mpi.sshPort", "0", "a number >= 1"),
        Problem("worker.gpus", "-1", "a number >= 0"),
        Problem("worker.replicas", '"two"', "an integer"),
    ]


def test_unknown_keys_list_the_known_ones() -> None:
    (found,) = problems({**MINIMAL, "worker": {"replica": 2}})

    assert found.path == "worker.replica"
    assert found.found == 'unknown key "replica" (did you mean "replicas"?)'
    assert found.allowed == (
        "one of the known keys: env, gpus, image, livenessProbe, nodeSelector, port, "
        "readinessProbe, replicas, resources, restartPolicy, security, tolerations"
    )


def test_quantities_keep_integers_as_text_and_reject_typos() -> None:
    job = TrainingJob.model_validate(
        {**MINIMAL, "worker": {"resources": {"requests": {"cpu": 8, "memory": "32Gi"}}}}
    )
    assert job.worker.resources.requests.cpu == "8"

    (found,) = problems({**MINIMAL, "shm": {"sizeLimit": "2GB"}})
    assert found == Problem("shm.sizeLimit", '"2GB"', "a quantity such as 8, 500m or 32Gi")


def test_label_env_and_annotation_keys_are_checked_at_their_own_key() -> None:
    found = problems(
        {
            **MINIMAL,
            "labels": {"app.kubernetes.io/part-of": "vision lab", "team": "vision"},
            "env": {"1X": "y"},
            "annotations": {"bad key": "fine value"},
        }
    )

    assert [(p.path, p.found) for p in found] == [
        ('annotations["bad key"]', '"bad key"'),
        ('env["1X"]', '"1X"'),
        ('labels["app.kubernetes.io/part-of"]', '"vision lab"'),
    ]


def test_the_model_is_frozen() -> None:
    job = TrainingJob.model_validate(MINIMAL)
    with pytest.raises(ValidationError, match="frozen"):
        job.command = "other"


def test_chart_values_of_a_subclass_hold_only_chart_keys() -> None:
    class Experiment(TrainingJob):
        """A job with a name, as the experiments layer composes it."""

        name: str

    experiment = Experiment.model_validate({**MINIMAL, "name": "imagenet"})
    values = experiment.chart_values()

    assert "name" not in values
    assert values["command"] == "python train.py"
    assert TrainingJob.model_validate(values) == TrainingJob.model_validate(MINIMAL)


def test_chart_values_leave_out_nulls_so_helm_keeps_its_defaults() -> None:
    values = TrainingJob.model_validate(MINIMAL).chart_values()

    assert "workingDir" not in values
    assert "slotsPerWorker" not in values["mpi"]
    assert values["security"]["hostIPC"] is False
