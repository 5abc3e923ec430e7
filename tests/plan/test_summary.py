"""The plan's summary: what would be created, and who gets what in which namespace."""

from __future__ import annotations

from rich.console import Console

from tests.experiment_helpers import load
from tests.stack_helpers import example_config
from trainstack.plan.model import Plan
from trainstack.plan.summary import print_summary
from trainstack.plan.summary_cluster import acceleration_lines


def _summary(plan: Plan) -> list[str]:
    console = Console(record=True, width=200, color_system=None)
    print_summary(plan, console, "build/plan/x")
    return [" ".join(line.split()) for line in console.export_text().splitlines()]


def test_the_summary_says_who_gets_what_in_each_namespace(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    start = lines.index("access: who gets what, in which namespace")
    rows = [line for line in lines[start:] if line.startswith("│")][:4]
    assert rows == [
        "│ nlp │ ClusterRole edit │ Group nlp-researchers │",
        "│ nlp │ Role trainstack-training-jobs │ Group nlp-researchers │",
        "│ vision │ ClusterRole edit │ Group vision-researchers │",
        "│ vision │ Role trainstack-training-jobs │ Group vision-researchers │",
    ]


def test_no_access_table_without_bindings(example_plans: dict[str, Plan]) -> None:
    assert not any(line.startswith("access:") for line in _summary(example_plans["onprem"]))


def test_the_acceleration_says_what_is_unknown_and_where_each_value_is_documented(
    example_plans: dict[str, Plan],
) -> None:
    lines = acceleration_lines(example_plans["aiacc"].stack.config)
    assert lines[:2] == [
        "acceleration: on",
        "  cluster component: ack-addon <name of the AI Acceleration component as ACK lists "
        "it on this cluster> <its exact version on this cluster> (set before deploying)",
    ]
    assert lines[2].startswith(
        '  job setting env.PERSEUS_ALLREDUCE_DTYPE = "0": documented by '
        "https://www.alibabacloud.com/help/en/egs/startup-commands-and-environment-variables"
    )
    assert acceleration_lines(example_plans["baseline"].stack.config) == ["acceleration: off"]


def test_a_job_setting_without_a_source_is_marked_unverified() -> None:
    config = example_config("aiacc")
    acceleration = config["trainstack:acceleration"]
    acceleration["experimentOverrides"]["env"]["PERSEUS_ALLREDUCE_NANCHECK"] = "1"
    del acceleration["component"]
    lines = acceleration_lines(load(config).config)
    assert lines[1] == "  cluster component: none"
    assert lines[3] == (
        '  job setting env.PERSEUS_ALLREDUCE_NANCHECK = "1": unverified: no source in '
        "trainstack:acceleration.sources"
    )


def test_what_deploy_fetches_from_outside_has_a_heading_of_its_own(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    start = lines.index(
        "pulled from outside region cn-beijing at deploy time (7); each key points it at a mirror:"
    )
    # (long lines wrap at the console's width: each entry starts on a line of its own)
    assert lines[start + 1].startswith(
        "https://github.com/kubeflow/trainer//manifests/overlays/standalone?ref=v1.9.4: "
    )
    assert _summary(example_plans["aiacc"]) == lines  # the same plan, the same summary


def test_the_summary_shows_capacity_allocatable_and_image_facts(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["aiacc"])
    assert any(
        line.startswith(
            "pool gpu-v100: 4 node(s) x 4 V100 = 16 GPUs; per node: capacity 48 "
            "CPU, 368Gi; allocatable 47.81 CPU, 364.708Gi"
        )
        for line in lines
    )
    assert any(
        line.startswith("image of tf-multiworker-mnist (experiments/tf-multiworker-mnist.yaml): ")
        and "CUDA yes" in line
        for line in lines
    )
