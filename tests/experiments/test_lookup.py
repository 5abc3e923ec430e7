"""A stack's experiments read for the commands that work after deployment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import project_copy
from trainstack.core.errors import ExperimentError
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.experiments.lookup import load_stack_experiments

# The issue's `printf 'name: typo\njob:\n  framwork: mpi\n  worker: {replicas: -3}\n'`: a
# file whose experiment is valid, whose job is not.
TYPO = {"name": "typo", "job": {"framwork": "mpi", "worker": {"replicas": -3}}}


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    return Project.load(project_copy(tmp_path / "project"))


def test_only_the_experiments_asked_for_are_resolved(project: Project) -> None:
    every = load_stack_experiments(project, "aiacc")
    assert len(every.names()) > 1
    only = load_stack_experiments(project, "aiacc", only={"imagenet-tensorflow", "no-such"})
    assert only.names() == ["imagenet-tensorflow"]
    assert only.runs == tuple(run for run in every.runs if run.point_name == "imagenet-tensorflow")
    assert load_stack_experiments(project, "aiacc", only=set()).runs == ()


def test_another_experiments_broken_job_fails_all_but_those_asked_for(project: Project) -> None:
    (project.root / "experiments" / "typo.yaml").write_text(dump_yaml(TYPO))
    with pytest.raises(ExperimentError, match=r"experiments/typo\.yaml"):
        load_stack_experiments(project, "aiacc")
    only = load_stack_experiments(project, "aiacc", only={"imagenet-tensorflow"})
    assert only.names() == ["imagenet-tensorflow"]
    (project.root / "experiments" / "typo.yaml").write_text("name: typo\njobb: {}\n")
    with pytest.raises(ExperimentError, match=r"experiments/typo\.yaml"):  # the file: checked
        load_stack_experiments(project, "aiacc", only={"imagenet-tensorflow"})
