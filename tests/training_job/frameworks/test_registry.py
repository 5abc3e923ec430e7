"""The framework registry: one entry per framework, unknown names refused by name."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from trainstack.training_job import SECTIONS, TrainingJob
from trainstack.training_job import frameworks as frameworks_package
from trainstack.training_job.frameworks import (
    FRAMEWORKS,
    FrameworkSpec,
    Port,
    by_crd,
    framework,
    frameworks,
)
from trainstack.training_job.model import Framework
from trainstack.training_job.settings import SETTINGS

BASE = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def test_every_framework_the_model_accepts_has_exactly_one_entry() -> None:
    accepted = set(Framework.__args__)  # type: ignore[attr-defined]
    assert {spec.name for spec in frameworks()} == accepted


def test_an_unknown_framework_is_an_error_naming_it_and_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown framework 'jax' \(registered: mpi, pytorch, "):
        framework("jax")


def test_each_framework_is_listed_once() -> None:
    names = [spec.name for spec in FRAMEWORKS]
    assert len(names) == len(set(names))


def test_every_framework_module_with_a_spec_is_listed() -> None:
    """The list is explicit: a module whose SPEC is missing from it would never be asked."""
    modules = [
        importlib.import_module(f"{frameworks_package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(frameworks_package.__path__)
    ]
    specs = [module.SPEC for module in modules if hasattr(module, "SPEC")]
    assert sorted(spec.name for spec in specs) == sorted(spec.name for spec in FRAMEWORKS)
    assert all(spec in FRAMEWORKS for spec in specs)


@pytest.mark.parametrize(
    ("name", "crd", "api_version", "reporting"),
    [
        ("mpi", "mpijobs.kubeflow.org", "kubeflow.org/v2beta1", "launcher"),
        ("tensorflow", "tfjobs.kubeflow.org", "kubeflow.org/v1", "chief"),
        ("pytorch", "pytorchjobs.kubeflow.org", "kubeflow.org/v1", "master"),
        ("trainjob", "trainjobs.trainer.kubeflow.org", "trainer.kubeflow.org/v1alpha1", "worker"),
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


@pytest.mark.parametrize("spec", frameworks(), ids=lambda spec: spec.name)
def test_each_entry_names_only_settings_of_the_catalog(spec: FrameworkSpec) -> None:
    assert spec.settings <= {setting.key for setting in SETTINGS}
    assert spec.settings >= {"runPolicy.activeDeadlineSeconds", "security.seccompProfile"}


@pytest.mark.parametrize(
    ("name", "port", "containers"),
    [
        ("mpi", None, {"launcher", "worker"}),
        ("tensorflow", Port("tfjob-port", 2222), {"tensorflow"}),
        ("pytorch", Port("pytorchjob-port", 23456), {"pytorch"}),
        ("trainjob", None, {"node"}),
    ],
)
def test_each_entry_says_what_its_operator_injects_and_expects(
    name: str, port: Port | None, containers: set[str]
) -> None:
    spec = framework(name)
    assert spec.port == port
    assert {role.container for role in spec.roles} == containers


def test_reserved_paths_and_values_of_roles_come_from_the_entry() -> None:
    job = TrainingJob.model_validate({**BASE, "mpi": {"sshAuthMountPath": "/home/mpiuser/.ssh"}})
    assert framework("mpi").reserved_mounts(job) == [
        ("mpi.sshAuthMountPath", "/home/mpiuser/.ssh"),
        ("the mpi-operator's hostfile", "/etc/mpi"),
        ("the ranks' env file", "/etc/trainstack/mpi"),
    ]
    assert framework("tensorflow").reserved_mounts(job) == []
    assert framework("mpi").role_settings(job, "launcher") is job.mpi.launcher
    assert framework("pytorch").role_settings(job, "master") is job.pytorch.master


def test_a_worker_only_pytorch_job_has_no_master_pod() -> None:
    job = TrainingJob.model_validate(
        {
            **BASE,
            "framework": "pytorch",
            "worker": {"replicas": 3},
            "pytorch": {"master": {"replicas": 0}},
        }
    )
    assert [(p.role, p.replicas) for p in framework("pytorch").pods(job)] == [("worker", 3)]
    assert framework("pytorch").pod_suffixes(job) == ["-worker-2"]


@pytest.mark.parametrize("spec", FRAMEWORKS, ids=lambda spec: spec.name)
def test_each_framework_has_a_section_of_the_values_under_its_name(spec: FrameworkSpec) -> None:
    assert spec.name in TrainingJob.model_fields
    assert SECTIONS[f"{spec.section_title} (framework: {spec.name})"] == (spec.name,)
