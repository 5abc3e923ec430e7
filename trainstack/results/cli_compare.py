"""The options and the reading ``results compare`` and ``results report`` share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from trainstack.core.errors import ResultsError
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_stack
from trainstack.results import health as gate
from trainstack.results.mlperf import DEFAULT_MIN_RUNS, MIN_RUNS_FLOOR
from trainstack.results.select import PREFERRED_METRICS
from trainstack.results.store import StoredRun, read_stack_runs

if TYPE_CHECKING:
    from trainstack.results.compare import Row
    from trainstack.results.scaling import Scaling


def both_stacks_runs(project: Project, a: str, b: str) -> dict[str, dict[str, list[StoredRun]]]:
    """The runs of both stacks, read once for the rows, their costs and the report."""
    for stack in (a, b):
        project.stack_file(stack)  # an unknown stack is an error naming the known ones
    return {a: stack_runs(project, a), b: stack_runs(project, b)}


def stack_runs(project: Project, stack: str) -> dict[str, list[StoredRun]]:
    runs = read_stack_runs(project.root, stack, project.display)
    if not runs:
        raise ResultsError(
            f"no results for stack {stack} in results/{stack}: record runs with "
            f"`trainstack results collect {stack}` or `trainstack results add {stack} "
            "EXPERIMENT LOGFILE`"
        )
    return runs


StackA = Annotated[
    str,
    typer.Argument(metavar="STACK_A", help="Stack A, e.g. aiacc.", autocompletion=complete_stack),
]
StackB = Annotated[
    str,
    typer.Argument(
        metavar="STACK_B", help="Stack B, e.g. baseline.", autocompletion=complete_stack
    ),
]
PLOTTED_METRIC = PREFERRED_METRICS[0]
"""The metric a plot draws when none is asked for and it is recorded."""
MetricOption = Annotated[
    list[str] | None,
    typer.Option(
        "--metric",
        metavar="METRIC",
        help=f"Only this metric (repeatable); a plot draws the first (default: "
        f"{PLOTTED_METRIC} when recorded).",
    ),
]
ExperimentOption = Annotated[
    list[str] | None,
    typer.Option("--experiment", metavar="EXPERIMENT", help="Only this experiment (repeatable)."),
]
ResolveOption = Annotated[
    float,
    typer.Option(
        "--resolve",
        min=0.1,
        max=100.0,
        metavar="PERCENT",
        help="The change (in %) the runs should resolve: runs needed per side at 95% "
        "confidence and 80% power.",
    ),
]


class Rule(StrEnum):
    """How ``compare`` answers."""

    welch = "welch"
    mlperf = "mlperf"


IncludeFlaggedOption = Annotated[
    bool,
    typer.Option(
        "--include-flagged",
        help="Count flagged runs too (throttled, XID or ECC error, below the SM-active floor).",
    ),
]
RuleOption = Annotated[
    Rule,
    typer.Option(
        "--rule",
        metavar="RULE",
        help="welch: the change with Welch's 95% CI and p (default); mlperf: each side "
        "scored as MLPerf Training does (fastest and slowest dropped, mean of the rest).",
    ),
]
MinRunsOption = Annotated[
    int,
    typer.Option(
        "--min-runs",
        min=MIN_RUNS_FLOOR,
        max=1000,
        metavar="N",
        help="--rule mlperf: fewer runs on a side is too few (MLPerf's for ResNet-50: 5).",
    ),
]


@dataclass(frozen=True)
class Counting:
    """Which runs count and how: ``--include-flagged``, ``--rule``, ``--min-runs``."""

    include_flagged: bool = False
    rule: Rule = Rule.welch
    min_runs: int = DEFAULT_MIN_RUNS


def compared_rows(
    project: Project,
    a: str,
    b: str,
    metrics: Sequence[str],
    experiments: Sequence[str],
    resolve_percent: float,
    counting: Counting = Counting(),
    health_tolerance: float = gate.TOLERANCE_PERCENT,
    health_max_age: float = gate.MAX_AGE_HOURS,
    runs: dict[str, dict[str, list[StoredRun]]] | None = None,
) -> list[Row]:
    """Both stacks' runs (read here unless given: :func:`both_stacks_runs`), every kept log
    checked, both stacks' health compared."""
    from trainstack.results.compare import compare as compare_rows
    from trainstack.results.health import health_gate
    from trainstack.results.logcheck import log_problem

    if runs is None:
        runs = both_stacks_runs(project, a, b)
    health, expected = health_gate(project, runs, health_tolerance, health_max_age)
    return compare_rows(
        a,
        runs[a],
        b,
        runs[b],
        metrics=metrics,
        experiments=experiments,
        resolve=resolve_percent / 100,
        check_log=lambda run: log_problem(run, project.display),
        health=health,
        expected=expected,
        include_flagged=counting.include_flagged,
        rule=counting.rule.value,
        min_runs=counting.min_runs,
    )


def plot_metric(rows: Sequence[Row], metrics: Sequence[str]) -> str:
    """The metric a compare plot shows: the first asked, else :data:`PLOTTED_METRIC`, else
    the first recorded."""
    recorded = sorted({row.metric for row in rows})
    if metrics:
        return metrics[0]
    if not recorded:
        raise ResultsError("--plot: nothing to plot (no experiment compared)")
    return PLOTTED_METRIC if PLOTTED_METRIC in recorded else recorded[0]


def matrix_scaling(
    project: Project, stack: str, matrix: str, metric: str | None, experiments: Sequence[str]
) -> Scaling:
    """One stack's scaling of a matrix from its recorded runs."""
    from trainstack.experiments.lookup import load_stack_experiments
    from trainstack.results.scaling import scaling as compute

    points = load_stack_experiments(project, stack).matrix_points(matrix)
    names = [point.point_name for point in points]
    return compute(stack, matrix, names, stack_runs(project, stack), metric, experiments)
