"""ExperimentReleases: each experiment is a release of the project's own chart."""

from __future__ import annotations

from trainstack.plan.model import Plan

RELEASE = "kubernetes:helm.sh/v3:Release"


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
