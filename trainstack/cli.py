"""The ``trainstack`` command line.

Every user error is a :class:`~trainstack.errors.TrainstackError`: it is printed as
one message on stderr, without a traceback, and the exit status is 2.
"""

from __future__ import annotations

import sys

import typer

from trainstack.chart.cli import chart_app
from trainstack.diff.cli import diff
from trainstack.errors import TrainstackError
from trainstack.live.cli import logs, status
from trainstack.operators.cli import operators
from trainstack.plan.cli import plan
from trainstack.results.cli import results_app

app = typer.Typer(
    name="trainstack",
    help="A distributed GPU-training platform on Kubernetes, as code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(chart_app, name="chart")
app.add_typer(results_app, name="results")
app.command()(plan)
app.command()(diff)
app.command()(operators)
app.command()(status)
app.command()(logs)

USER_ERROR_EXIT = 2


def main() -> None:
    """Console-script entry point (usage errors are Typer's own: message and exit 2)."""
    try:
        app()
    except TrainstackError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(USER_ERROR_EXIT)
