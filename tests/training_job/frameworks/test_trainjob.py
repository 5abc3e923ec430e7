"""framework trainjob: a TrainJob's nodes, the runtimes it knows, what it cannot carry."""

from __future__ import annotations

import pytest

from trainstack.core.errors import ValuesError
from trainstack.training_job import TrainingJob, release_name_problems, validate_values
from trainstack.training_job.frameworks import framework
from trainstack.training_job.frameworks.trainjob import replicated_jobs
from trainstack.training_job.frameworks.trainjob.unsupported import UNSUPPORTED

BASE = {
    "framework": "trainjob",
    "image": {"name": "registry.example.com/train:1"},
    # the preflight runs before the trainer's command (docs/preflight.md): it needs one
    "command": ["torchrun", "/app/train.py"],
}


def _job(**changes: object) -> TrainingJob:
    return TrainingJob.model_validate({**BASE, **changes})


def test_torch_nodes_are_named_by_jobset_and_each_holds_its_gpus() -> None:
    job = _job(worker={"replicas": 4, "gpus": 8})
    spec = framework("trainjob")

    assert [(p.role, p.replicas, p.gpus) for p in spec.pods(job)] == [("worker", 4, 8)]
    assert spec.pod_suffixes(job) == ["-node-0-3"]
    assert replicated_jobs(job) == ("node",)


def test_an_mpi_runtime_runs_its_launcher_as_the_first_node() -> None:
    job = _job(worker={"replicas": 4, "gpus": 8}, trainjob={"runtime": "deepspeed-distributed"})
    spec = framework("trainjob")

    assert [(p.role, p.replicas) for p in spec.pods(job)] == [("launcher", 1), ("worker", 3)]
    assert spec.pod_suffixes(job) == ["-launcher-0-0", "-node-0-2"]
    assert replicated_jobs(job) == ("launcher", "node")


def test_a_name_too_long_for_jobsets_host_names_is_refused() -> None:
    job = _job(worker={"replicas": 10})
    # 54 + len("-node-0-9") = 63: fits; one more does not
    assert release_name_problems("a" * 54, job) == []
    (problem,) = release_name_problems("a" * 55, job)
    assert problem.allowed == (
        "at most 54 characters: the pod name " + "a" * 55 + "-node-0-9 must fit in 63"
    )


def test_every_setting_a_trainjob_cannot_carry_is_named_with_its_value() -> None:
    with pytest.raises(ValuesError) as caught:
        validate_values(
            {**BASE, "network": {"hostNetwork": True}, "runPolicy": {"backoffLimit": 2}}, "test"
        )
    assert [str(p) for p in caught.value.problems] == [
        "network.hostNetwork: found true; allowed: false with framework trainjob (a TrainJob "
        "cannot set hostNetwork)",
        "runPolicy.backoffLimit: found 2; allowed: null with framework trainjob (retries are "
        "the runtime's failurePolicy)",
    ]
    # the defaults say nothing a TrainJob cannot carry
    assert [entry.key for entry in UNSUPPORTED if entry.used(_job())] == []


def test_a_trainjob_without_a_command_cannot_run_the_preflight_before_it() -> None:
    bare = {key: value for key, value in BASE.items() if key != "command"}
    with pytest.raises(ValuesError, match="preflight.enabled") as caught:
        validate_values(bare, "test")
    assert [str(p) for p in caught.value.problems] == [
        "preflight.enabled: found true; allowed: false with framework trainjob and no command "
        "(a TrainJob cannot add the preflight's init container: the checks run before the "
        "trainer's command, and there is none)",
    ]
    assert validate_values({**bare, "preflight": {"enabled": False}}, "test") is not None


def test_warnings_say_what_a_trainjob_cannot_harden() -> None:
    (token,) = framework("trainjob").warnings(_job())
    assert (token.check, token.key) == (
        "trainJobToken",
        "job.security.automountServiceAccountToken",
    )
    assert (
        framework("trainjob").warnings(_job(security={"automountServiceAccountToken": True})) == []
    )
