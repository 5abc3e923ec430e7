"""``trainstack results``: record runs (``collect``, ``add``), ``compare`` and ``scaling``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from trainstack.console.commands import App
from trainstack.console.groups import help_when_bare
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_experiment, complete_matrix, complete_stack
from trainstack.live import options as cluster_options
from trainstack.live.options import ClusterOptions
from trainstack.results import health as gate
from trainstack.results.cli_compare import (
    Counting,
    ExperimentOption,
    IncludeFlaggedOption,
    MetricOption,
    MinRunsOption,
    ResolveOption,
    Rule,
    RuleOption,
    StackA,
    StackB,
    both_stacks_runs,
    compared_rows,
    matrix_scaling,
    plot_metric,
)
from trainstack.results.mlperf import DEFAULT_MIN_RUNS
from trainstack.results.select import PREFERRED_METRICS
from trainstack.results.store import Written

results_app = App(
    help="Results of training runs: record them as files, compare stacks, show scaling.",
    invoke_without_command=True,
    callback=help_when_bare,
)


class Format(StrEnum):
    """Output formats of compare and scaling."""

    text = "text"
    markdown = "markdown"
    json = "json"


FormatOption = Annotated[
    Format,
    typer.Option("--format", metavar="FORMAT", help="text, markdown (a PR comment) or json."),
]


class RecordFormat(StrEnum):
    """Output formats of add and collect."""

    text = "text"
    json = "json"


RecordFormatOption = Annotated[
    RecordFormat,
    typer.Option(
        "--format", metavar="FORMAT", help="text, or json: what was recorded (docs/scripting.md)."
    ),
]
PlotOption = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help="Also draw a plot into FILE.png or FILE.svg."),
]


def _print_written(
    written: Sequence[Written],
    project: Project,
    output_format: RecordFormat = RecordFormat.text,
    notes: Sequence[str] = (),
) -> None:
    if output_format is RecordFormat.json:
        from trainstack.results.render_json import recorded_json

        print(recorded_json(written, notes, project.display), end="")
        return
    from trainstack.results.render_recorded import recorded_text

    print(recorded_text(written, notes, project.display), end="")


@results_app.command("add", short_help="Record runs from saved logs (arena or kubectl logs).")
def add(
    stack: Annotated[
        str,
        typer.Argument(
            metavar="STACK", help="The stack the logs come from.", autocompletion=complete_stack
        ),
    ],
    experiment: Annotated[
        str,
        typer.Argument(
            metavar="EXPERIMENT",
            help="The experiment (or matrix point).",
            autocompletion=complete_experiment,
        ),
    ],
    logs: Annotated[
        list[Path], typer.Argument(metavar="LOGFILE", help="Saved logs, one run each.")
    ],
    output_format: RecordFormatOption = RecordFormat.text,
) -> None:
    """Record runs from saved logs (`arena logs`, `kubectl logs`): one run per LOGFILE."""
    from trainstack.results.add import add_logs

    project = Project.find()
    _print_written(add_logs(project, stack, experiment, logs), project, output_format)


@results_app.command("collect", short_help="Record the finished runs of a stack's experiments.")
def collect(
    stack: Annotated[
        str,
        typer.Argument(
            metavar="STACK", help="The stack whose cluster to read.", autocompletion=complete_stack
        ),
    ],
    experiments: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="EXPERIMENT",
            help="Experiments to collect; default: all.",
            autocompletion=complete_experiment,
        ),
    ] = None,
    kubeconfig: cluster_options.Kubeconfig = None,
    context: cluster_options.Context = None,
    timeout: cluster_options.Timeout = cluster_options.DEFAULT_TIMEOUT,
    deadline: cluster_options.Deadline = cluster_options.DEFAULT_DEADLINE,
    output_format: RecordFormatOption = RecordFormat.text,
) -> None:
    """Record every finished run of the stack's experiments from the live cluster."""
    from trainstack.results.collect import collect_runs

    project = Project.find()
    options = ClusterOptions(kubeconfig, context, timeout, deadline)
    written, notes = collect_runs(project, stack, experiments or [], options)
    _print_written(written, project, output_format, notes)


@results_app.command("compare", short_help="Two stacks' runs: the change with its 95% CI and p.")
def compare(
    a: StackA,
    b: StackB,
    output: FormatOption = Format.text,
    plot: PlotOption = None,
    metric: MetricOption = None,
    experiment: ExperimentOption = None,
    resolve: ResolveOption = 2.0,
    health_tolerance: gate.HealthTolerance = gate.TOLERANCE_PERCENT,
    health_max_age: gate.HealthMaxAge = gate.MAX_AGE_HOURS,
    include_flagged: IncludeFlaggedOption = False,
    rule: RuleOption = Rule.welch,
    min_runs: MinRunsOption = DEFAULT_MIN_RUNS,
) -> None:
    """Per experiment and metric: n and mean ± sd on each side; the change of A against B
    with its 95% CI, Welch's p-value, and the runs per side it takes to resolve ±2%
    (failed and flagged runs left out and listed); or, --rule mlperf, MLPerf's scores."""
    from trainstack.results.costs import compared_costs
    from trainstack.results.render_compare import compare_json, compare_markdown, compare_text

    project = Project.find()
    if plot is not None:
        from trainstack.results.plot import plot_format

        plot_format(plot)
    counting = Counting(include_flagged, rule, min_runs)
    runs = both_stacks_runs(project, a, b)
    rows = compared_rows(
        project,
        a,
        b,
        metric or [],
        experiment or [],
        resolve,
        counting,
        health_tolerance,
        health_max_age,
        runs,
    )
    if plot is not None:
        from trainstack.results.plot import plot_compare

        plot_compare(rows, a, b, plot_metric(rows, metric or []), plot)
    if rule is Rule.mlperf and output is not Format.json:
        from trainstack.results.render_compare import notes_of
        from trainstack.results.render_mlperf import mlperf_markdown, mlperf_text

        render = mlperf_text if output is Format.text else mlperf_markdown
        sys.stdout.write(render(rows, a, b, notes_of(rows)))
        return
    costs = compared_costs(project, rows, a, b, (runs[a], runs[b]))
    renders = {Format.text: compare_text, Format.markdown: compare_markdown}
    text = (
        compare_json(rows, costs) if output is Format.json else renders[output](rows, a, b, costs)
    )
    sys.stdout.write(text)


@results_app.command("report", short_help="One self-contained HTML page: verdict, tables, plots.")
def report(
    a: StackA,
    b: StackB,
    out: Annotated[
        Path,
        typer.Option(
            "--output-dir", "-o", metavar="DIR", help="Directory to write index.html into."
        ),
    ],
    metric: MetricOption = None,
    experiment: ExperimentOption = None,
    resolve: ResolveOption = 2.0,
    include_flagged: IncludeFlaggedOption = False,
) -> None:
    """Write DIR/index.html: the verdict first (change, 95% CI, p, runs), the tables, the
    plots, every run's environment and provenance, and what the comparison does not cover."""
    from trainstack.results.costs import compared_costs
    from trainstack.results.report import Compared, write_report

    project = Project.find()
    counting = Counting(include_flagged)
    runs = both_stacks_runs(project, a, b)
    rows = compared_rows(
        project, a, b, metric or [], experiment or [], resolve, counting, runs=runs
    )
    costs = compared_costs(project, rows, a, b, (runs[a], runs[b]))
    path = write_report(project, Compared(a, b, rows, runs, costs), out)
    print(f"{project.display(path)}: report of {a} vs {b}, {len(rows)} row(s)")


@results_app.command("scaling", short_help="A matrix's speed-up and efficiency against GPUs.")
def scaling(
    stack: cluster_options.Stack,
    matrix: Annotated[
        str,
        typer.Argument(
            metavar="MATRIX", help="The matrix, e.g. keras-lstm.", autocompletion=complete_matrix
        ),
    ],
    output: FormatOption = Format.text,
    plot: PlotOption = None,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric",
            metavar="METRIC",
            help="The metric (default: the first the points report of "
            f"{', '.join(PREFERRED_METRICS)}).",
        ),
    ] = None,
    experiment: ExperimentOption = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="STACK",
            help="Another stack with the matrix: drawn on the same plot.",
        ),
    ] = None,
) -> None:
    """A matrix's points against total GPUs: speed-up, efficiency, scale-up vs scale-out."""
    from trainstack.results.render_scaling import scaling_json, scaling_markdown, scaling_text

    project = Project.find()
    if plot is not None:
        from trainstack.results.plot import plot_format

        plot_format(plot)
    result = matrix_scaling(project, stack, matrix, metric, experiment or [])
    if plot is not None:
        from trainstack.results.plot import plot_scaling

        others = []
        if against is not None:
            others.append(matrix_scaling(project, against, matrix, result.metric, experiment or []))
        plot_scaling([result, *others], plot)
    renders = {Format.text: scaling_text, Format.markdown: scaling_markdown}
    sys.stdout.write(scaling_json(result) if output is Format.json else renders[output](result))
