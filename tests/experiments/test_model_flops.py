"""An experiment's `mfu:` (FLOPs per sample, the samples/s metric, the precision) reaches
each of its runs, and is refused out of bounds."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.cli_helpers import project_copy
from trainstack.core.project import Project
from trainstack.core.validation import problems_from
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.experiments.model_flops import ModelFlops


def test_the_declaration_reaches_every_run(tmp_path: Path) -> None:
    root = project_copy(tmp_path / "project")
    experiment = root / "experiments" / "imagenet-tensorflow.yaml"
    text = experiment.read_text()
    experiment.write_text(text + "mfu:\n  flopsPerSample: 2.3e10\n  precision: fp16\n")
    runs = load_stack_experiments(Project.load(root), "aiacc").runs_of("imagenet-tensorflow")
    assert runs[0].mfu == ModelFlops.model_validate({"flopsPerSample": 2.3e10})
    assert runs[0].mfu is not None and runs[0].mfu.metric == "images_per_sec"
    # Not a chart value: the job, and so the base-values digest, is unchanged.
    plain = load_stack_experiments(Project.load(project_copy(tmp_path / "plain")), "aiacc")
    assert runs[0].base_digest == plain.runs_of("imagenet-tensorflow")[0].base_digest


@pytest.mark.parametrize(
    ("declared", "path"),
    [
        ({"flopsPerSample": 0}, "flopsPerSample"),
        ({"flopsPerSample": 1e30}, "flopsPerSample"),
        ({"flopsPerSample": 1e9, "precision": "fp8"}, "precision"),
        ({"flopsPerSample": 1e9, "metric": "Images Per Sec"}, "metric"),
    ],
)
def test_out_of_bounds_is_refused(declared: dict[str, object], path: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ModelFlops.model_validate(declared)
    (problem,) = problems_from(caught.value, ModelFlops)
    assert problem.path == path
