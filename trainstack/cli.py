"""The ``trainstack`` command line.

Every user error is a :class:`~trainstack.errors.TrainstackError`: it is printed as
one message on stderr, without a traceback, and the exit status is 2.
"""

from __future__ import annotations

import sys

import typer

from trainstack.chart.cli import chart_app
from trainstack.errors import TrainstackError

app = typer.Typer(
    name="trainstack",
    help="A distributed GPU-training platform on Kubernetes, as code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(chart_app, name="chart")

USER_ERROR_EXIT = 2


def main() -> None:
    """Console-script entry point."""
    try:
        app(standalone_mode=False)
    except TrainstackError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(USER_ERROR_EXIT)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except Exception as usage:  # click's usage errors (bad option, missing argument)
        import click

        if isinstance(usage, click.ClickException):
            usage.show()
            sys.exit(USER_ERROR_EXIT)
        raise
