"""How a team's share is enforced: the ResourceQuota is raised only when Kueue holds
every job of the team."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest
from rich.console import Console

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import ARENA, TRAINING_OPERATOR
from tests.team_helpers import team
from trainstack.core.errors import PlanCheckError
from trainstack.plan.model import Plan
from trainstack.plan.summary import print_summary

COHORT = {"enabled": True, "cohort": "shared-gpus"}


def _mnist(name: str, team_name: str = "nlp", gpus: int = 1) -> dict[str, Any]:
    experiment = job(framework="tensorflow", datasets=[], worker={"replicas": 2, "gpus": gpus})
    experiment["job"].pop("workingDir")
    experiment["job"]["security"] = {"seccompProfile": None}  # what ack-arena's TFJob can take
    experiment.update(name=name, team=team_name)
    return experiment


def _teams(**queueing: Any) -> dict[str, Any]:
    """Both teams in a cohort; TF jobs served by ack-arena, which Kueue cannot hold."""
    config = stack_config(teams=[team("vision"), team("nlp")], queueing={**COHORT, **queueing})
    config["trainstack:operators"] = copy.deepcopy(ARENA)
    return config


def test_a_job_kueue_cannot_hold_keeps_the_quota_at_the_share(deploy: Deployer) -> None:
    # Arena's tf-operator cannot suspend: the TFJob starts outside Kueue.
    deployment = deploy(_mnist("mnist"), config=_teams())
    nlp = deployment.enforcement["nlp"]
    assert (nlp.by, nlp.ceiling.gpu, nlp.share.gpu) == ("both", 6, 6)
    assert nlp.reason == (
        "1 job(s) not queued (mnist): the ResourceQuota stays at the share, Kueue holds the "
        "queued ones to it"
    )
    # vision has no job outside Kueue: its quota may hold what it borrows from nlp.
    vision = deployment.enforcement["vision"]
    assert (vision.by, vision.ceiling.gpu, vision.share.gpu) == ("Kueue", 16, 10)
    assert vision.ceiling.cpu == Decimal(190)


def test_when_every_job_is_queued_kueue_enforces_the_share(deploy: Deployer) -> None:
    config = _teams()
    config["trainstack:operators"] = copy.deepcopy(TRAINING_OPERATOR)
    deployment = deploy(_mnist("mnist"), config=config)
    assert deployment.experiments[0].queued
    nlp = deployment.enforcement["nlp"]
    assert (nlp.by, nlp.ceiling.gpu, nlp.share.gpu) == ("Kueue", 16, 6)


def test_without_a_cohort_both_hold_the_share(deploy: Deployer) -> None:
    config = stack_config(teams=[team("vision"), team("nlp")], queueing={"enabled": True})
    config["trainstack:operators"] = copy.deepcopy(TRAINING_OPERATOR)
    nlp = deploy(_mnist("mnist"), config=config).enforcement["nlp"]
    assert (nlp.by, nlp.ceiling.gpu) == ("both", 6)


def test_without_queueing_the_resource_quota_alone(deploy: Deployer) -> None:
    config = stack_config(teams=[team("vision"), team("nlp")], queueing={"enabled": False})
    nlp = deploy(_mnist("mnist"), config=config).enforcement["nlp"]
    assert (nlp.by, nlp.ceiling.gpu, nlp.reason) == ("ResourceQuota", 6, "no queueing")


def test_a_job_that_cannot_be_queued_never_gets_the_borrowed_quota(deploy: Deployer) -> None:
    # 12 GPUs (a chief and 2 workers of 4) fit nlp's borrowing ceiling (16) but not its
    # share (6): the job cannot be queued, so it is refused.
    with pytest.raises(PlanCheckError) as caught:
        deploy(_mnist("big", gpus=4), config=_teams())
    (failure,) = caught.value.failures
    assert failure.endswith(
        "team: the job needs 12 GPUs (1 chief x 4 GPUs + 2 worker x 4 GPUs), but team nlp has "
        "a quota of 6 GPUs "
        "(trainstack:teams[1].quota.gpu in stacks/Pulumi.test.yaml): its ResourceQuota "
        "refuses the pods beyond that; ask for at most 6 GPUs (fewer replicas, or less per "
        "pod), or raise the team's quota.gpu"
    )


def test_the_plan_summary_says_how_each_share_is_enforced(example_plans: dict[str, Plan]) -> None:
    console = Console(record=True, width=400)
    print_summary(example_plans["aiacc"], console, "build/plan/aiacc")
    text = console.export_text()
    assert (
        "team vision: share 10 GPUs enforced by Kueue; ResourceQuota 16 GPUs (every job "
        "queued: Kueue admits within the share and lends idle quota of cohort shared-gpus; "
        "the ResourceQuota allows the borrowing ceiling (16 GPUs))"
    ) in text
    # training-operator serves nlp's TFJob and PyTorchJob: every job of nlp is queued too.
    assert (
        "team nlp: share 6 GPUs enforced by Kueue; ResourceQuota 16 GPUs (every job "
        "queued: Kueue admits within the share and lends idle quota of cohort shared-gpus; "
        "the ResourceQuota allows the borrowing ceiling (16 GPUs))"
    ) in text
    assert "pool gpu-v100: 4 node(s) x 4 V100 = 16 GPUs" in text
    assert "pool cpu: 2 node(s), CPU only" in text
