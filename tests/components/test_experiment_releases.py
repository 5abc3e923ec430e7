"""ExperimentReleases: from minimal arguments and in the example program, each experiment is a
release of the project's own chart."""

from __future__ import annotations

from typing import Any

import pulumi

from components.experiment_releases import ExperimentReleases, ExperimentReleasesArgs
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.experiments.resolve import Experiment
from trainstack.plan.model import Plan
from trainstack.training_job import TrainingJob

RELEASE = "kubernetes:helm.sh/v3:Release"
JOB = TrainingJob.model_validate(
    {
        "framework": "mpi",
        "image": {"name": "registry.example.com/resnet:1"},
        "worker": {"replicas": 2, "gpus": 4},
    }
)


def _experiment(name: str, **changes: Any) -> Experiment:
    return Experiment(
        release_name=name,
        point_name=name,
        file_experiment=name,
        source=f"experiments/{name}.yaml",
        namespace="default",
        job=JOB,
        base_values={},
        **changes,
    )


def _build(*experiments: Experiment, gate: bool = False) -> tuple[ExperimentReleases, Registered]:
    def make() -> ExperimentReleases:
        operators = pulumi.CustomResource("test:index:Operators", "operators")
        team = pulumi.CustomResource("test:index:Team", "vision")
        queue = pulumi.CustomResource("test:index:Queue", "queueing")
        args = ExperimentReleasesArgs(
            list(experiments),
            "./charts/training-job",
            provider(),
            [operators],
            {"vision": team},
            [queue],
            gate=pulumi.Output.from_input(True) if gate else None,
        )
        return ExperimentReleases("experiments", args)

    return build(make)


def test_each_experiment_is_a_release_of_the_projects_chart_named_after_it() -> None:
    made, registered = _build(_experiment("resnet"), _experiment("bert"))
    release = registered.named("resnet-release")
    assert {
        key: release.inputs[key]
        for key in ("name", "chart", "namespace", "description", "skipAwait", "allowNullValues")
    } == {
        "name": "resnet",
        "chart": "./charts/training-job",
        "namespace": "default",
        "description": "trainstack experiment from experiments/resnet.yaml",
        "skipAwait": True,
        "allowNullValues": True,
    }
    assert release.inputs["values"]["worker"]["replicas"] == 2
    assert value(made.release_names) == ["resnet", "bert"]


def test_a_job_waits_for_the_operators_and_for_its_team_and_queue_when_queued() -> None:
    _, registered = _build(_experiment("free"), _experiment("queued", team="vision", queued=True))
    operators, team, queue = (
        registered.named(name).urn for name in ("operators", "vision", "queueing")
    )
    assert set(registered.named("free-release").depends_on) == {operators}
    assert set(registered.named("queued-release").depends_on) == {operators, team, queue}


def test_behind_a_gate_the_values_are_the_same_once_it_opens() -> None:
    _, registered = _build(_experiment("resnet"), gate=True)
    assert registered.one(RELEASE).inputs["values"] == _experiment("resnet").values


def _experiment_releases(plan: Plan) -> dict[str, dict]:
    return {
        r.inputs["name"]: r.inputs
        for r in plan.of_type(RELEASE)
        if r.parent.endswith("ExperimentReleases::experiments")
    }


def test_one_release_per_experiment_with_a_relative_chart_path(
    example_plans: dict[str, Plan],
) -> None:
    for plan in example_plans.values():
        releases = _experiment_releases(plan)
        assert sorted(releases) == sorted(e.release_name for e in plan.experiments)
        for experiment in plan.experiments:
            release = releases[experiment.release_name]
            # Relative: an absolute path would differ on every machine and in every diff.
            assert release["chart"] == "./charts/training-job"
            assert release["namespace"] == experiment.namespace
            assert release["values"] == experiment.values
            assert release["skipAwait"] is True


def test_example_stacks_run_their_workloads(example_plans: dict[str, Plan]) -> None:
    ack = [
        "imagenet-tensorflow",
        "keras-lstm-1x1",
        "keras-lstm-1x2",
        "keras-lstm-1x4",
        "keras-lstm-2x1",
        "keras-lstm-4x1",
        "pytorch-ddp-mnist",
        "tf-multiworker-mnist",
    ]
    assert sorted(_experiment_releases(example_plans["aiacc"])) == ack
    assert sorted(_experiment_releases(example_plans["baseline"])) == ack
    assert sorted(_experiment_releases(example_plans["onprem"])) == ["horovod-resnet50-onprem"]
