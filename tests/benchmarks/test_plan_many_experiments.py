"""The fleet benchmark's scratch project plans: a change to the example stacks (their
shared template's acknowledgements once named an experiment the benchmark does not have)
must not leave ``make bench`` failing where nobody looks."""

from __future__ import annotations

from pathlib import Path

from benchmarks.plan_many_experiments import make_project
from tests.project_copy import run_in_process


def test_the_benchmark_project_plans_its_generated_experiments(tmp_path: Path) -> None:
    make_project(tmp_path, 3)
    outcome = run_in_process(["plan", "bench", "-o", "out"], tmp_path)
    assert outcome.status == 0, outcome.stderr
    names = sorted(path.name for path in (tmp_path / "out" / "bench" / "objects").glob("*.yaml"))
    for experiment in ("bench-mpi-0000", "bench-tensorflow-0001", "bench-pytorch-0002"):
        assert any(experiment in name for name in names), (experiment, names)
