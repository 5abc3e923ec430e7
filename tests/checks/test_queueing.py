"""Plan-time checks of what Kueue cannot do for a team's job."""

from __future__ import annotations

from tests.checks.team_cases import (
    failures,
    own_warnings,
    team_config,
    team_experiment,
    vision,
    workers,
)
from tests.experiment_helpers import Deployer


def test_a_job_kueue_cannot_hold(deploy: Deployer) -> None:
    experiment = team_experiment(
        "mnist", framework="tensorflow", worker=workers(2, 1), security={"seccompProfile": None}
    )
    experiment["job"].pop("workingDir")
    config = team_config(queueing={"enabled": True})
    config["trainstack:operators"] = {"arena": {"version": "0.14.2"}}
    deployment = deploy(experiment, config=config)
    assert not deployment.experiments[0].queued
    assert own_warnings(deployment) == [
        "experiments/00-mnist.yaml: experiment mnist: job.framework: not queued: "
        "operators.arena (ACK ack-arena 0.14.2) serves tfjobs.kubeflow.org without "
        "runPolicy.suspend, so Kueue cannot hold the job; it starts at `pulumi up`, outside "
        "team vision's queue, and Kueue does not count its 3 GPU(s); serve "
        "tfjobs.kubeflow.org with operators.trainingOperator (version 1.9.4) instead of "
        "operators.arena to queue it [notQueued]",
    ]
    # Following the advice: the job is queued and the warning is gone.
    config["trainstack:operators"] = {"trainingOperator": {"version": "1.9.4"}}
    deployment = deploy(experiment, config=config)
    assert deployment.experiments[0].queued
    assert own_warnings(deployment) == []


def test_rdma_is_not_covered_by_the_queue(deploy: Deployer) -> None:
    experiment = team_experiment(
        "rdma",
        worker=workers(2, 4),
        network={"hostNetwork": True, "rdma": {"enabled": True}},
        mpi={"sshPort": 2222},
    )
    team = vision(podSecurity="privileged")
    assert failures(deploy, experiment, config=team_config(team, queueing={"enabled": True})) == [
        "experiments/00-rdma.yaml: experiment rdma: job.network.rdma.enabled: training pods "
        "request rdma/hca, which team vision's ClusterQueue does not cover (it covers cpu, "
        "memory and nvidia.com/gpu): Kueue never admits the job",
    ]
