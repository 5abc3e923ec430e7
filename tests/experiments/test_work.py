"""An experiment's `work` (FLOPs per sample, the samples/s metric, the precision, the
step's batch and gradient bytes) reaches each of its runs, and is refused out of bounds."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.cli_helpers import project_copy
from trainstack.core.project import Project
from trainstack.core.validation import problems_from
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.experiments.work import Work


def test_the_declaration_reaches_every_run(tmp_path: Path) -> None:
    root = project_copy(tmp_path / "project")
    runs = load_stack_experiments(Project.load(root), "aiacc").runs_of("imagenet-tensorflow")
    # workload 1's declaration (experiments/imagenet-tensorflow.yaml): ResNet-50 in FP16
    work = runs[0].work
    assert work is not None
    assert (work.flops_per_sample, work.metric, work.precision) == (
        2.454e10,
        "images_per_sec",
        "fp16",
    )
    assert (work.samples_per_step, work.gradient_bytes_per_step) == (128, 102228128)
    assert work.efficiency is None  # no guessed range: only the ceiling flags runs


def test_the_declaration_is_not_a_chart_value(tmp_path: Path) -> None:
    # Not a chart value: the job, and so the base-values digest, is unchanged without it.
    root = project_copy(tmp_path / "project")
    experiment = root / "experiments" / "imagenet-tensorflow.yaml"
    text = experiment.read_text()
    experiment.write_text(text[: text.index("\nwork:\n")] + "\n")
    bare = load_stack_experiments(Project.load(root), "aiacc").runs_of("imagenet-tensorflow")
    plain = load_stack_experiments(Project.load(project_copy(tmp_path / "plain")), "aiacc")
    assert bare[0].work is None
    assert bare[0].base_digest == plain.runs_of("imagenet-tensorflow")[0].base_digest


@pytest.mark.parametrize(
    ("declared", "path"),
    [
        ({"flopsPerSample": 0}, "flopsPerSample"),
        ({"flopsPerSample": 1e30}, "flopsPerSample"),
        ({"flopsPerSample": 1e9, "precision": "fp8"}, "precision"),
        ({"flopsPerSample": 1e9, "metric": "Images Per Sec"}, "metric"),
        ({"flopsPerSample": 1e9, "samplesPerStep": 0}, "samplesPerStep"),
        ({"flopsPerSample": 1e9, "efficiency": {"min": 0.6, "max": 0.2}}, "efficiency.min"),
    ],
)
def test_out_of_bounds_is_refused(declared: dict[str, object], path: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Work.model_validate({**declared, "source": "test"})
    (problem,) = problems_from(caught.value, Work)
    assert problem.path == path
