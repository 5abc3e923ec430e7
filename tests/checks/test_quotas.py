"""Plan-time checks of a team's quota: per job, and all its experiments together."""

from __future__ import annotations

from tests.checks.team_cases import (
    NLP,
    STACK,
    failures,
    own_warnings,
    team_config,
    team_experiment,
    vision,
    workers,
)
from tests.experiment_helpers import Deployer


def test_a_job_larger_than_its_team_quota(deploy: Deployer) -> None:
    experiment = team_experiment("resnet", worker=workers(4, 4, limits={"memory": "64Gi"}))
    assert failures(deploy, experiment) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 16 GPUs "
        "(1 launcher + 4 worker x 4 GPUs), but team vision has a quota of 8 GPUs "
        f"(trainstack:teams[0].quota.gpu in {STACK}): its ResourceQuota refuses the pods "
        "beyond that; ask for at most 8 GPUs (fewer replicas, or less per pod), or raise the "
        "team's quota.gpu",
    ]


def test_memory_counts_requests_defaults_and_limits(deploy: Deployer) -> None:
    # 2 workers x 300Gi (a limit alone is also the request) + the launcher's 8Gi default
    # request; limits: 2 x 300Gi + the launcher's 32Gi default limit.
    experiment = team_experiment("big", worker=workers(2, 1, limits={"memory": "300Gi"}))
    # One problem (the job does not fit its team's quota): one line, every amount in it.
    assert failures(deploy, experiment, config=team_config()) == [
        "experiments/00-big.yaml: experiment big: team: the job needs 608Gi memory and "
        "632Gi memory limits (1 launcher + 2 worker x 1 GPUs), but team vision has a quota "
        f"of 512Gi memory and 512Gi memory limits (trainstack:teams[0].quota.memory in {STACK}"
        "): its ResourceQuota refuses the pods beyond that; ask for at most 512Gi memory and "
        "512Gi memory limits (fewer replicas, or less per pod), or raise the team's quota.memory",
    ]


def test_a_job_over_every_quota_is_one_line_naming_each_key(deploy: Deployer) -> None:
    experiment = team_experiment("huge", worker=workers(4, 4, limits={"memory": "300Gi"}))
    (line,) = failures(deploy, experiment, config=team_config())
    assert line.startswith(
        "experiments/00-huge.yaml: experiment huge: team: the job needs 16 GPUs, "
    )
    assert "memory and " in line and "memory limits (1 launcher + 4 worker x 4 GPUs)" in line
    assert f"(trainstack:teams[0].quota.gpu, trainstack:teams[0].quota.memory in {STACK})" in line


def test_experiments_created_at_once_exceed_the_quota_together(deploy: Deployer) -> None:
    experiments = [team_experiment(name, worker=workers(2, 2)) for name in ("a", "b", "c")]
    assert failures(deploy, *experiments) == [
        f"{STACK}: experiment (all of team vision): trainstack:teams[0].quota.gpu: "
        "`pulumi up` creates 3 experiments of team vision at once and they need 12 GPUs "
        "together (a 4, b 4, c 4), above the 8 GPUs its ResourceQuota allows: pods beyond it "
        "are refused and jobs start half-way, holding GPUs they cannot use; run fewer at "
        "once, or enable trainstack:queueing",
    ]


def test_queued_experiments_wait_for_each_other(deploy: Deployer) -> None:
    experiments = [team_experiment(name, worker=workers(2, 2)) for name in ("a", "b", "c")]
    deployment = deploy(*experiments, config=team_config(queueing={"enabled": True}))
    assert all(e.queued for e in deployment.experiments)
    assert own_warnings(deployment) == [
        f"{STACK}: experiment (all of team vision): trainstack:teams[0].quota.gpu: the 3 "
        "experiments of team vision need 12 GPUs together (a 4, b 4, c 4), above its 8 GPUs: "
        "Kueue admits each of the 3 queued one(s) whole when quota frees up, so they run one "
        "after another, not side by side [queuedTogether]",
    ]


def test_a_queued_job_beyond_what_the_team_can_borrow(deploy: Deployer) -> None:
    queueing = {"enabled": True, "cohort": "shared-gpus"}
    experiment = team_experiment("resnet", worker=workers(4, 4))
    assert failures(deploy, experiment, config=team_config(vision(), NLP, queueing=queueing)) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 16 GPUs "
        "(1 launcher + 4 worker x 4 GPUs), but team vision can hold at most 12 GPUs "
        f"(trainstack:teams[0].quota.gpu in {STACK}, with what it may borrow): Kueue never "
        "admits it; ask for at most 12 GPUs (fewer replicas, or less per pod), or raise the "
        "team's quota.gpu or borrowingLimit",
    ]


def test_a_queued_job_that_must_borrow(deploy: Deployer) -> None:
    queueing = {"enabled": True, "cohort": "shared-gpus"}
    experiment = team_experiment("resnet", worker=workers(3, 4))
    deployment = deploy(experiment, config=team_config(vision(), NLP, queueing=queueing))
    assert own_warnings(deployment) == [
        "experiments/00-resnet.yaml: experiment resnet: team: the job needs 12 GPUs, above "
        f"team vision's own 8 GPUs (trainstack:teams[0].quota.gpu in {STACK}): Kueue admits "
        "it only while other teams of cohort shared-gpus leave 4 GPUs idle [borrowing]",
    ]


def test_experiments_without_a_team_are_not_checked(deploy: Deployer) -> None:
    experiment = team_experiment("free", team=None, worker=workers(4, 4))
    assert deploy(experiment, config=team_config()).experiments[0].team is None
