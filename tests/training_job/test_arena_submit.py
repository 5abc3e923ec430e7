"""arenaSubmit in the model: Arena's env per role, its GPU count, and what it refuses."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.stack_helpers import REPO
from trainstack.core.errors import ValuesError
from trainstack.training_job import TrainingJob, validate_values
from trainstack.training_job.arena_submit import arena_env, arena_labels, requested_gpus, submits
from trainstack.training_job.frameworks import FRAMEWORKS, FrameworkSpec, framework

IMAGE = {"name": "registry.example.com/train:1"}


def _job(**values: Any) -> TrainingJob:
    return TrainingJob.model_validate({"image": IMAGE, "arenaSubmit": True, **values})


def test_workers_and_gpus_on_every_role_void_without_gpus() -> None:
    job = _job(worker={"replicas": 4, "gpus": 4})
    assert arena_env(job, "launcher", 0) == {"gpus": "4", "workers": "4"}
    assert arena_env(job, "worker", 4) == {"gpus": "4", "workers": "4"}
    cpu_only = _job(worker={"replicas": 2})
    assert arena_env(cpu_only, "worker", 0)["NVIDIA_VISIBLE_DEVICES"] == "void"
    off = TrainingJob.model_validate({"image": IMAGE, "worker": {"gpus": 4}})
    assert arena_env(off, "worker", 4) == {}


def test_pytorch_counts_the_master_and_tensorflow_leaves_parameter_servers_out() -> None:
    # worker.replicas counts the master (pytorch.countMasterAsWorker, Arena's --workers):
    # the master and 2 Workers
    pytorch = _job(framework="pytorch", worker={"replicas": 3, "gpus": 2})
    assert arena_env(pytorch, "master", 2)["workers"] == "3"
    assert requested_gpus(pytorch) == 6
    # without: the master and 3 Workers, which Arena's --workers counts as 4
    apart = _job(
        framework="pytorch",
        worker={"replicas": 3, "gpus": 2},
        pytorch={"countMasterAsWorker": False},
    )
    assert arena_env(apart, "master", 2)["workers"] == "4"
    assert requested_gpus(apart) == 8
    tensorflow = _job(
        framework="tensorflow",
        worker={"replicas": 2, "gpus": 1},
        tensorflow={"ps": {"replicas": 2}},
    )
    assert arena_env(tensorflow, "ps", 0)["NVIDIA_VISIBLE_DEVICES"] == "void"
    assert "NVIDIA_VISIBLE_DEVICES" not in arena_env(tensorflow, "worker", 1)
    assert requested_gpus(tensorflow) == 3  # the chief and two workers


def test_arenas_labels_name_the_kind_and_the_release() -> None:
    assert arena_labels(_job(framework="tensorflow"), "mnist") == {
        "app": "tfjob",
        "createdBy": "TFJob",
        "release": "mnist",
    }


def test_a_copy_by_hand_is_refused_with_arenas_value() -> None:
    values = {"image": IMAGE, "arenaSubmit": True, "worker": {"replicas": 4, "gpus": 4}}
    with pytest.raises(ValuesError, match="env.workers") as caught:
        validate_values({**values, "env": {"workers": "4"}}, "job.yaml")
    assert [str(problem) for problem in caught.value.problems] == [
        'env.workers: found "4"; allowed: unset with arenaSubmit (arena submit sets it: 4)'
    ]


def test_arena_has_no_trainjob() -> None:
    with pytest.raises(ValuesError, match="arenaSubmit: found true") as caught:
        validate_values(
            {"image": IMAGE, "framework": "trainjob", "command": "train", "arenaSubmit": True},
            "x",
        )
    (problem,) = caught.value.problems
    assert problem.allowed == (
        "false with framework trainjob (arena submit has no such job: mpi, tensorflow, pytorch)"
    )


def test_arena_parity_has_a_section_per_arena_command_of_the_registry() -> None:
    # docs/arena-parity.md: "## <section title> (`arena submit <command>`)" per framework
    text = (REPO / "docs" / "arena-parity.md").read_text(encoding="utf-8")
    sections = re.findall(r"(?m)^## (.+) \(`arena submit (\w+)`\)$", text)
    assert sections == [
        (spec.section_title, spec.arena.command) for spec in FRAMEWORKS if spec.arena is not None
    ]
    assert submits() == ["mpi", "tensorflow", "pytorch"]


def test_a_new_framework_gets_arenas_env_labels_and_gpus_from_its_spec_alone(
    respec: Callable[..., FrameworkSpec],
) -> None:
    # TensorFlow's roles with other Arena settings, under TensorFlow's name: what Arena gives
    # follows the data, never the name
    arena = framework("tensorflow").arena
    assert arena is not None
    other = replace(arena, app="jaxjob", workers=("chief", "worker"), gpu_roles=("worker",))
    respec("tensorflow", arena=replace(other, hides_gpus=("evaluator",)))
    job = _job(framework="tensorflow", worker={"replicas": 2, "gpus": 1})
    assert arena_env(job, "ps", 0) == {"gpus": "1", "workers": "3"}
    assert arena_env(job, "evaluator", 0)["NVIDIA_VISIBLE_DEVICES"] == "void"
    assert arena_labels(job, "r")["app"] == "jaxjob"
    assert requested_gpus(job) == 2
    respec("tensorflow", arena=None)
    with pytest.raises(ValuesError, match="arenaSubmit: found true") as caught:
        validate_values({"image": IMAGE, "framework": "tensorflow", "arenaSubmit": True}, "x")
    assert "arena submit has no such job" in str(caught.value.problems[0])
