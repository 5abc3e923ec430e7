"""The example stacks: workload 1's numbers, and a difference limited to acceleration."""

from __future__ import annotations

from typing import Any

from tests.stack_helpers import ACK_STACKS, REPO, example_config
from trainstack.core.yaml.io import read_yaml
from trainstack.plan.model import Plan

TEMPLATE = "stacks/templates/workload-1-ack.yaml"


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def test_both_ack_stacks_name_one_cluster_template_and_set_no_cluster_of_their_own() -> None:
    for stack in ACK_STACKS:
        config = read_yaml(REPO / "stacks" / f"Pulumi.{stack}.yaml")["config"]
        assert config["trainstack:clusterTemplate"] == "templates/workload-1-ack.yaml"
        assert "trainstack:cluster" not in config and "trainstack:nodePools" not in config


def test_stacks_differ_only_in_cluster_identity_and_acceleration() -> None:
    aiacc, baseline = _flatten(example_config("aiacc")), _flatten(example_config("baseline"))
    differing = {
        key for key in aiacc.keys() | baseline.keys() if aiacc.get(key) != baseline.get(key)
    }
    # one cluster template for both (created from the same settings), nothing else
    assert (
        example_config("aiacc")["trainstack:cluster"]
        == example_config("baseline")["trainstack:cluster"]
    )
    assert differing == {
        "trainstack:acceleration.enabled",
        # the seed's cluster-side AI Acceleration component, on the accelerated cluster only
        "trainstack:acceleration.component.kind",
        "trainstack:acceleration.component.name",
        "trainstack:acceleration.component.version",
        "trainstack:acceleration.experimentOverrides.env.PERSEUS_ALLREDUCE_DTYPE",
        "trainstack:acceleration.sources.env.PERSEUS_ALLREDUCE_DTYPE",
    }


def test_workload_one_is_reproduced(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        config = plan.stack.config
        pool, cpu = config.node_pools
        assert pool.instance_types == ["ecs.gn6e-c12g1.12xlarge"]
        assert (pool.desired_size, pool.gpus_per_node, pool.gpu_model) == (4, 4, "V100")
        assert pool.gpu_capacity == 16
        # A small CPU pool for launchers: general purpose ECS, no GPUs.
        assert (cpu.instance_types, cpu.gpus_per_node) == (["ecs.g7.2xlarge"], 0)
        dataset, results = config.datasets
        assert (dataset.name, dataset.capacity, dataset.access_modes) == (
            "imagenet-data",
            "1Pi",
            ["ReadWriteMany"],
        )
        # Where the nlp team's jobs keep their models: a directory of the same NAS.
        assert (results.name, results.namespace, results.sub_path) == (
            "training-results",
            "nlp",
            "training-results",
        )
        operators = [(op.key, op.release.version) for op in config.operators.enabled()]
        assert operators == [("mpiOperator", "0.8.2"), ("trainingOperator", "1.9.4")]
    assert example_plans["aiacc"].stack.config.acceleration.enabled
    assert not example_plans["baseline"].stack.config.acceleration.enabled


def test_example_stacks_plan_warning_clean_with_their_choices_acknowledged(
    example_plans: dict[str, Plan],
) -> None:
    """No warning to learn to ignore: each deliberate choice is acknowledged, with a reason."""
    assert {stack: plan.warnings for stack, plan in example_plans.items()} == {
        stack: () for stack in ("imagenet", "aiacc", "baseline", "onprem")
    }
    acknowledged = {
        stack: [(a.warning.check, a.warning.experiment, a.by) for a in plan.acknowledged]
        for stack, plan in example_plans.items()
    }
    horovod = "experiments/horovod-resnet50-onprem.yaml"
    assert acknowledged == {
        "imagenet": [],
        **{
            stack: [
                # by file: experiments/ first
                # one text for both: the cluster template they share
                ("borrowing", "imagenet-tensorflow", f"{TEMPLATE}: acknowledge[0]"),
                ("queuedTogether", "(all of team vision)", f"{TEMPLATE}: acknowledge[1]"),
            ]
            for stack, source in (
                ("aiacc", "stacks/Pulumi.aiacc.yaml"),
                ("baseline", "stacks/Pulumi.baseline.yaml"),
            )
        },
        "onprem": [
            ("hostNetwork", "horovod-resnet50-onprem", f"{horovod}: acknowledge[0]"),
            ("privileged", "horovod-resnet50-onprem", f"{horovod}: acknowledge[1]"),
        ],
    }
    assert all(a.reason for plan in example_plans.values() for a in plan.acknowledged)
