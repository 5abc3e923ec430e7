"""``trainstack results``: record runs (``collect``, ``add``), ``compare`` and ``scaling``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from trainstack.console.groups import help_when_bare
from trainstack.core.errors import ResultsError
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_experiment, complete_matrix, complete_stack
from trainstack.live import ClusterOptions
from trainstack.live import options as cluster_options
from trainstack.results.store import StoredRun, Written, read_stack_runs

results_app = typer.Typer(
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
    Format, typer.Option("--format", help="text, markdown (a PR comment) or json.")
]


class RecordFormat(StrEnum):
    """Output formats of add and collect."""

    text = "text"
    json = "json"


RecordFormatOption = Annotated[
    RecordFormat,
    typer.Option("--format", help="text, or json: what was recorded (docs/scripting.md)."),
]
PlotOption = Annotated[
    Path | None, typer.Option("--plot", help="Also draw a plot into FILE.png or FILE.svg.")
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
    for item in written:
        record = item.record
        if item.path is None:
            print(f"{record.stack}/{record.experiment}: skipped: {item.note}")
            continue
        values = ", ".join(
            f"{name} {value.value:g}{' ' + value.unit if value.unit else ''}"
            for name, value in sorted(record.metrics.items())
        )
        note = f" ({item.note})" if item.note else ""
        print(f"{project.display(item.path)}: run {record.run}: {values}{note}")
    for text in notes:
        print(text)


@results_app.command("add", short_help="Record runs from saved logs (arena or kubectl logs).")
def add(
    stack: Annotated[
        str, typer.Argument(help="The stack the logs come from.", autocompletion=complete_stack)
    ],
    experiment: Annotated[
        str,
        typer.Argument(
            help="The experiment (or matrix point).", autocompletion=complete_experiment
        ),
    ],
    logs: Annotated[list[Path], typer.Argument(help="Saved logs, one run each.")],
    output_format: RecordFormatOption = RecordFormat.text,
) -> None:
    """Record runs from saved logs (`arena logs`, `kubectl logs`): one run per LOGFILE."""
    from trainstack.results.add import add_logs

    project = Project.find()
    _print_written(add_logs(project, stack, experiment, logs), project, output_format)


@results_app.command("collect", short_help="Record the finished runs of a stack's experiments.")
def collect(
    stack: Annotated[
        str, typer.Argument(help="The stack whose cluster to read.", autocompletion=complete_stack)
    ],
    experiments: Annotated[
        list[str] | None,
        typer.Argument(
            help="Experiments to collect; default: all.", autocompletion=complete_experiment
        ),
    ] = None,
    kubeconfig: cluster_options.Kubeconfig = None,
    context: cluster_options.Context = None,
    timeout: cluster_options.Timeout = cluster_options.DEFAULT_TIMEOUT,
    output_format: RecordFormatOption = RecordFormat.text,
) -> None:
    """Record every finished run of the stack's experiments from the live cluster."""
    from trainstack.results.collect import collect_runs

    project = Project.find()
    options = ClusterOptions(kubeconfig, context, timeout)
    written, notes = collect_runs(project, stack, experiments or [], options)
    _print_written(written, project, output_format, notes)


def _stack_runs(project: Project, stack: str) -> dict[str, list[StoredRun]]:
    runs = read_stack_runs(project.root, stack, project.display)
    if not runs:
        raise ResultsError(
            f"no results for stack {stack} in results/{stack}: record runs with "
            f"`trainstack results collect {stack}` or `trainstack results add {stack} "
            "EXPERIMENT LOGFILE`"
        )
    return runs


@results_app.command("compare", short_help="Two stacks' runs: mean ± sd, 95% CI, change A vs B.")
def compare(
    a: Annotated[str, typer.Argument(help="Stack A, e.g. aiacc.", autocompletion=complete_stack)],
    b: Annotated[
        str, typer.Argument(help="Stack B, e.g. baseline.", autocompletion=complete_stack)
    ],
    output: FormatOption = Format.text,
    plot: PlotOption = None,
    metric: Annotated[
        str | None, typer.Option("--metric", help="Metric to plot (default: images_per_sec).")
    ] = None,
) -> None:
    """Per experiment and metric: runs, mean ± sd, 95% CI on each side; change of A vs B."""
    from trainstack.results.compare import compare as compare_rows
    from trainstack.results.render_compare import compare_json, compare_markdown, compare_text

    project = Project.find()
    for stack in (a, b):
        project.stack_file(stack)  # an unknown stack is an error naming the known ones
    rows = compare_rows(a, _stack_runs(project, a), b, _stack_runs(project, b))
    if plot is not None:
        from trainstack.results.plot import plot_compare, plot_format

        plot_format(plot)
        metrics = sorted({row.metric for row in rows})
        chosen = metric or ("images_per_sec" if "images_per_sec" in metrics else metrics[0])
        plot_compare(rows, a, b, chosen, plot)
    renders = {Format.text: compare_text, Format.markdown: compare_markdown}
    text = compare_json(rows) if output is Format.json else renders[output](rows, a, b)
    sys.stdout.write(text)


@results_app.command("scaling", short_help="A matrix's speed-up and efficiency against GPUs.")
def scaling(
    stack: Annotated[
        str, typer.Argument(help="The stack, e.g. aiacc.", autocompletion=complete_stack)
    ],
    matrix: Annotated[
        str, typer.Argument(help="The matrix, e.g. keras-lstm.", autocompletion=complete_matrix)
    ],
    output: FormatOption = Format.text,
    plot: PlotOption = None,
    metric: Annotated[
        str | None,
        typer.Option("--metric", help="Metric (default: images_per_sec, train_time, duration)."),
    ] = None,
) -> None:
    """A matrix's points against total GPUs: speed-up, efficiency, scale-up vs scale-out."""
    from trainstack.experiments import load_stack_experiments
    from trainstack.results.render_scaling import scaling_json, scaling_markdown, scaling_text
    from trainstack.results.scaling import scaling as compute

    project = Project.find()
    points = load_stack_experiments(project, stack).matrix_points(matrix)
    names = [point.point_name for point in points]
    result = compute(stack, matrix, names, _stack_runs(project, stack), metric)
    if plot is not None:
        from trainstack.results.plot import plot_scaling

        plot_scaling(result, plot)
    renders = {Format.text: scaling_text, Format.markdown: scaling_markdown}
    sys.stdout.write(scaling_json(result) if output is Format.json else renders[output](result))
