"""The plan says, per dataset, where its data comes from, the layout verified, the mode;
and the example stacks point at no download that does not work."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from tests.conftest import EXAMPLE_STACKS
from trainstack.plan.model import Plan
from trainstack.plan.summary import print_summary
from trainstack.plan.writer import write_plan

SOURCE = (
    "source: oss oss://<OSS bucket holding the ImageNet TFRecords>/<prefix of train/ and "
    "validation/ in the bucket, e.g. imagenet/tfrecords>/ (<region of the bucket, e.g. "
    "cn-beijing>) -> imagenet/imagenet_data"
)
SPEC = [
    SOURCE,
    "layout: 1024 x imagenet/imagenet_data/train/train-*",
    "layout: 128 x imagenet/imagenet_data/validation/validation-*",
    "layout: 100000000000 to 200000000000 bytes in all, each file non-empty",
    "verify: quick",
    "then: its command (3 argument(s)); what it writes is verified only where the layout names it",
]


def _summary(plan: Plan) -> list[str]:
    console = Console(record=True, width=400, color_system=None)
    print_summary(plan, console, "build/plan/x")
    return console.export_text().splitlines()


def _after(lines: list[str], start: str, count: int) -> list[str]:
    (index,) = [n for n, line in enumerate(lines) if line.startswith(start)]
    return [line.strip() for line in lines[index + 1 : index + 1 + count]]


def test_the_data_stack_says_how_each_file_system_is_filled(
    example_plans: dict[str, Plan],
) -> None:
    lines = _summary(example_plans["imagenet"])
    assert _after(lines, "file system imagenet-data:", 7) == [
        "populated once by a Job on stack aiacc (deadline 48 h); the stacks mounting it "
        "wait for it",
        *SPEC,
    ]
    assert lines == _summary(example_plans["imagenet"])  # deterministic


def test_each_cluster_stack_says_which_job_it_runs_and_what_it_checks(
    example_plans: dict[str, Plan],
) -> None:
    aiacc = _after(_summary(example_plans["aiacc"]), "dataset imagenet-data:", 7)
    assert aiacc == [
        "populated by this stack's Job populate-imagenet-data (deadline 48 h)",
        *SPEC,
    ]
    baseline = _after(_summary(example_plans["baseline"]), "dataset imagenet-data:", 2)
    assert baseline == [
        "populated by stack aiacc's Job; this stack's Job wait-populated-imagenet-data "
        "waits for it",
        SOURCE,
    ]
    # the results dataset mounts a part of the file system: not populated through it
    results = _after(_summary(example_plans["aiacc"]), "dataset training-results:", 1)
    assert not results[0].startswith("populated")


def test_no_example_points_at_image_net_downloads(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    """image-net.org has answered 404 to download_imagenet.sh since 2020
    (tensorflow/models#8052): no example stack may render a reference to either."""
    for stack in EXAMPLE_STACKS:
        plan = example_plans[stack]
        written = write_plan(plan, tmp_path / stack)
        texts = ["\n".join(_summary(plan))]
        texts += [path.read_text() for path in sorted(written.rglob("*")) if path.is_file()]
        assert len(texts) > 1, stack
        for text in texts:
            for banned in ("image-net.org", "download_imagenet.sh"):
                assert banned not in text, (stack, banned)
