"""The framework registry: one entry per framework, unknown names refused by name."""

from __future__ import annotations

import pytest

from trainstack.frameworks import by_crd, framework, frameworks
from trainstack.frameworks.registry import register
from trainstack.training_job import TrainingJob
from trainstack.training_job.model import Framework

BASE = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def test_every_framework_the_model_accepts_has_exactly_one_entry() -> None:
    accepted = set(Framework.__args__)  # type: ignore[attr-defined]
    assert {spec.name for spec in frameworks()} == accepted


def test_an_unknown_framework_is_an_error_naming_it_and_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown framework 'jax' \(registered: mpi, pytorch, "):
        framework("jax")


def test_a_second_entry_of_one_name_is_refused() -> None:
    with pytest.raises(ValueError, match="framework 'mpi' is registered twice"):
        register(framework("mpi"))


@pytest.mark.parametrize(
    ("name", "crd", "api_version", "reporting"),
    [
        ("mpi", "mpijobs.kubeflow.org", "kubeflow.org/v2beta1", "launcher"),
        ("tensorflow", "tfjobs.kubeflow.org", "kubeflow.org/v1", "chief"),
        ("pytorch", "pytorchjobs.kubeflow.org", "kubeflow.org/v1", "master"),
    ],
)
def test_each_entry_names_its_object_and_the_role_that_reports(
    name: str, crd: str, api_version: str, reporting: str
) -> None:
    spec = framework(name)
    assert (spec.crd, spec.api_version) == (crd, api_version)
    assert spec.role(spec.reporting_role).name == reporting
    assert by_crd(crd) is spec


def test_pods_skip_roles_without_replicas_and_count_each_role() -> None:
    job = TrainingJob.model_validate(
        {
            **BASE,
            "framework": "tensorflow",
            "worker": {"replicas": 2, "gpus": 1},
            "tensorflow": {"ps": {"replicas": 3}},
        }
    )
    pods = framework("tensorflow").pods(job)
    # chief (1, worker's GPUs), 2 workers, 3 CPU parameter servers; no evaluator
    assert [(p.role, p.replicas, p.gpus) for p in pods] == [
        ("chief", 1, 1),
        ("worker", 2, 1),
        ("ps", 3, 0),
    ]


def test_an_unknown_role_names_the_framework_roles() -> None:
    with pytest.raises(KeyError, match=r"framework mpi has no role .chief. \(roles: launcher"):
        framework("mpi").role("chief")
