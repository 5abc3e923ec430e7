"""The operator-dependent settings of a job: which a job uses, and only where they apply."""

from __future__ import annotations

import pytest

from trainstack.training_job import TrainingJob
from trainstack.training_job.settings import SETTINGS, setting, used_settings

BASE = {"image": {"name": "registry.example.com/train:1"}, "command": "python train.py"}


def test_a_job_uses_the_settings_it_renders_in_the_order_of_the_list() -> None:
    job = TrainingJob.model_validate(
        {
            **BASE,
            "framework": "pytorch",
            "pytorch": {"nprocPerNode": "gpu"},
            "runPolicy": {"backoffLimit": 3},
        }
    )
    assert [found.key for found in used_settings(job)] == [
        "runPolicy.cleanPodPolicy",
        "runPolicy.backoffLimit",
        "security.seccompProfile",
        "pytorch.nprocPerNode",
    ]


def test_a_setting_its_framework_cannot_carry_is_never_used() -> None:
    job = TrainingJob.model_validate({**BASE, "framework": "trainjob"})
    assert [found.key for found in used_settings(job)] == ["security.seccompProfile"]
    assert not setting("runPolicy.cleanPodPolicy").applies_to("trainjob")


def test_an_unknown_key_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown setting 'suspend' \(known: pytorch\."):
        setting("suspend")
    assert len({found.key for found in SETTINGS}) == len(SETTINGS)
