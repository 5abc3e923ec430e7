"""``trainstack chart``: generate, check, render and package the training-job chart.

``chart render`` is registered by the command line (:mod:`trainstack.cli`): with
``--stack`` it renders an experiment with what a stack gives it, which needs the layers
above this one; a values file alone is rendered here (:func:`render_values_file`).

User errors are raised as :class:`~trainstack.core.errors.TrainstackError`; the top-level
CLI prints them as one line and exits with status 2. The Helm library and the model are
imported by the commands that use them, so that other commands (``trainstack plan``)
do not pay for them at start-up.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from trainstack.chart.paths import repo_chart_dir
from trainstack.console.commands import App
from trainstack.console.groups import help_when_bare
from trainstack.core.base_model import PATTERN_WORDS
from trainstack.core.describe import describe_value
from trainstack.core.errors import ChartError, Problem, ValuesError
from trainstack.core.names import DNS_LABEL_PATTERN
from trainstack.core.project import Project

chart_app = App(
    help="Generate, check, render and package the training-job chart.",
    invoke_without_command=True,
    callback=help_when_bare,
)


@chart_app.command(short_help="Write the chart's generated files from the model.")
def generate(
    output: Annotated[
        Path | None,
        typer.Option(
            "--output-dir",
            "-o",
            metavar="DIR",
            help="Write a complete chart here instead of charts/training-job/.",
        ),
    ] = None,
) -> None:
    """Write Chart.yaml, values.yaml, values.schema.json, README.md,
    templates/_frameworks.tpl and templates/_constants.tpl from the model, the framework
    registry and the constants the templates share."""
    from trainstack.chart.generate import write_chart

    source = repo_chart_dir()
    target = output or source
    written = write_chart(target, source)
    typer.echo(f"wrote {len(written)} generated files to {target}")


@chart_app.command(short_help="Fail when the generated files drift from the model.")
def check(
    chart_dir: Annotated[
        Path | None,
        typer.Option(
            "--chart-dir", metavar="DIR", help="Chart to check (default: charts/training-job/)."
        ),
    ] = None,
) -> None:
    """Fail when the chart's generated files differ from what the generator writes."""
    from trainstack.chart.generate import check_chart

    target = chart_dir or repo_chart_dir()
    check_chart(target)
    typer.echo(f"{target} is up to date with the model")


def render_values_file(values: Path, name: str | None, namespace: str) -> None:
    """Print the manifests of a values file, like `helm template` (``trainstack chart
    render VALUES``; the command, which also renders experiments on a stack, is
    :func:`trainstack.submit.chart_render.render`)."""
    from trainstack.chart.render import render_manifests
    from trainstack.training_job import read_values_file, release_name_problems, validate_values

    data = read_values_file(values)
    if "job" in data and "framework" not in data:  # an experiment file, not chart values
        problem = Problem(
            "job",
            "an experiment file (its job: section holds the chart's values)",
            "chart values; render an experiment with what a stack gives it: `trainstack "
            f"chart render --stack STACK {values}`",
        )
        raise ValuesError(values, [problem])
    job = validate_values(data, values)
    release = name or _name_from(values)
    if re.fullmatch(DNS_LABEL_PATTERN, namespace) is None or len(namespace) > 63:
        problem = Problem(
            "--namespace", describe_value(namespace), PATTERN_WORDS[DNS_LABEL_PATTERN]
        )
        raise ValuesError(f"{values} (with --namespace)", [problem])
    problems = release_name_problems(release, job)
    if problems:
        raise ValuesError(f"{values} (with --name {release})", problems)
    manifests = render_manifests(data, release=release, namespace=namespace)
    for path, text in manifests.items():
        typer.echo(f"---\n# Source: {path}\n{text.strip()}")


@chart_app.command()
def package(
    output: Annotated[
        Path | None,
        typer.Option(
            "--output-dir", "-o", metavar="DIR", help="Directory for the .tgz (default: dist/)."
        ),
    ] = None,
) -> None:
    """Check the chart for drift, then package it into a .tgz."""
    from trainstack.chart.package import package_chart

    destination = output or Project.find().root / "dist"
    if destination.exists() and not destination.is_dir():
        raise ChartError(f"--output-dir {destination} is a file, not a directory")
    archive = package_chart(repo_chart_dir(), destination)
    typer.echo(f"packaged {archive}")


def _name_from(path: Path) -> str:
    """A release name from a file name: imagenet_mpi.yaml -> imagenet-mpi."""
    return re.sub(r"[^a-z0-9-]+", "-", path.stem.lower()).strip("-") or "training-job"
