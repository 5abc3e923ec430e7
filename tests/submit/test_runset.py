"""Run names: unique per campaign, cut so that every pod's name stays a DNS label."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from trainstack.core.errors import TrainstackError
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.experiments.resolve import Experiment
from trainstack.submit.runset import campaign_id, check_stack_label, run_names


@pytest.fixture(scope="module")
def imagenet() -> Experiment:
    runs = load_stack_experiments(Project.load(Path(__file__).parents[2]), "aiacc").runs_of(
        "imagenet-tensorflow"
    )
    return runs[0]


def test_names_count_from_one_after_the_campaign(imagenet: Experiment) -> None:
    assert run_names(imagenet, "k3x9q2", 2, None) == [
        "imagenet-tensorflow-k3x9q2-1",
        "imagenet-tensorflow-k3x9q2-2",
    ]
    assert run_names(imagenet, "k3x9q2", 1, "mine") == ["mine"]
    assert run_names(imagenet, "k3x9q2", 2, "mine") == ["mine-1", "mine-2"]


def test_a_long_experiment_name_is_cut_for_its_pods(imagenet: Experiment) -> None:
    long = dataclasses.replace(imagenet, point_name="a" * 50 + "-b")
    names = run_names(long, "k3x9q2", 100, None)
    # the worker pods are <name>-worker-3: a DNS label of at most 63 characters
    assert all(len(name) + len("-worker-3") <= 63 for name in names)
    assert names[0].endswith("-k3x9q2-1") and names[99].endswith("-k3x9q2-100")


def test_a_name_that_cannot_name_a_run_is_refused(imagenet: Experiment) -> None:
    with pytest.raises(TrainstackError, match="--name: 'Mine' cannot name a run"):
        run_names(imagenet, "k3x9q2", 1, "Mine")
    with pytest.raises(TrainstackError, match="at most"):
        run_names(imagenet, "k3x9q2", 1, "a" * 60)


def test_campaigns_are_six_lowercase_letters_and_digits() -> None:
    assert re.fullmatch(r"[a-z0-9]{6}", campaign_id())
    assert len({campaign_id() for _ in range(50)}) == 50


def test_a_stack_name_must_be_a_label_value() -> None:
    check_stack_label("aiacc")
    with pytest.raises(TrainstackError, match="cannot label its runs"):
        check_stack_label("x" * 64)
    with pytest.raises(TrainstackError, match="cannot label its runs"):
        check_stack_label("stack.")
