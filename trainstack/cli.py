"""The ``trainstack`` command line.

Exit statuses (also in docs/limits.md): 0 success (``diff``: no changes), 1 ``diff`` found
changes, 2 a user error (every :class:`~trainstack.core.errors.TrainstackError`: one
``error:`` line per problem on stderr, no traceback) or a usage error (Typer's), 70 an
internal error (a bug: one line, ``TRAINSTACK_DEBUG=1`` shows the traceback), 128+N
stopped by signal N after cleaning up (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Annotated

import typer

from trainstack.chart.cli import chart_app
from trainstack.console.commands import App
from trainstack.console.groups import help_when_bare
from trainstack.console.lifetime import exit_at_once, tune_garbage_collector
from trainstack.console.signals import (
    Interrupted,
    announce,
    stop_signal,
    stopping_on_signals,
)
from trainstack.console.terminal import print_error, print_user_error
from trainstack.core.errors import TrainstackError
from trainstack.diff.cli import diff
from trainstack.healthrun.cli import health
from trainstack.live.cli import inspect, logs, status
from trainstack.operators.cli import operators
from trainstack.plan.cli import plan
from trainstack.reference.cli import docs_app
from trainstack.results.cli import results_app
from trainstack.submit.chart_render import render as chart_render
from trainstack.submit.cli import run as run_experiment
from trainstack.submit.runs_cli import runs

app = App(
    name="trainstack",
    help="A distributed GPU-training platform on Kubernetes, as code.",
    # Typer's --install-completion / --show-completion (bash, zsh, fish, PowerShell).
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _version(wanted: bool) -> None:
    if wanted:
        print(f"trainstack {package_version()}")
        raise typer.Exit()


def package_version() -> str:
    """The installed trainstack's version (the checkout's when run from one)."""
    from importlib import metadata  # 20 ms of start-up: only for --version

    try:
        return metadata.version("trainstack")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """A distributed GPU-training platform on Kubernetes, as code."""
    help_when_bare(ctx)  # `trainstack` alone lists the commands: exit 0


# Short help of at most ~60 characters: click cuts longer ones with "..." in the list.
app.add_typer(chart_app, name="chart", short_help="Generate, check, render, package the chart.")
app.add_typer(results_app, name="results", short_help="Record, compare and plot training runs.")
app.add_typer(docs_app, name="docs", short_help="Write and check the docs' reference pages.")
app.command(short_help="Plan a stack offline: every resource, checked.")(plan)
app.command(short_help="What differs between stacks or against a git revision.")(diff)
app.command(short_help="The operator catalog: versions, installs, settings.")(operators)
app.command(short_help="Each experiment's jobs on the stack's cluster.")(status)
app.command(short_help="Print the logs of an experiment's job.")(logs)
app.command(short_help="Read the stack's cluster into facts/STACK.json.")(inspect)
app.command(short_help="GPU health and interconnect into facts/STACK.health.json.")(health)
app.command("run", short_help="Run an experiment on a stack's cluster, no deployment.")(
    run_experiment
)
app.command(short_help="The runs `trainstack run` created; --delete one.")(runs)
chart_app.command("render", short_help="A values file's (or an experiment's) manifests.")(
    chart_render
)

USER_ERROR_EXIT = 2
INTERNAL_ERROR_EXIT = 70  # sysexits.h EX_SOFTWARE; 3 is diff's data-loss status
DEBUG_ENV = "TRAINSTACK_DEBUG"


def run() -> None:
    """The ``trainstack`` executable: :func:`main` in a process of its own, with fewer
    garbage collections, ending without the interpreter's teardown (both in
    :mod:`trainstack.console.lifetime`; :func:`main` alone, as tests call it, changes neither)."""
    tune_garbage_collector()  # every module is imported by now
    try:
        main()
    except SystemExit as exiting:
        if exiting.code is None or isinstance(exiting.code, int):
            exit_at_once(exiting.code or 0)
        raise  # a message for Python to print, or the streams could not be flushed
    exit_at_once(0)


def main() -> None:
    """Command-line entry point (usage errors are Typer's own: message and exit 2).

    A command stopped by a signal ends with 128+N whatever its unwinding raised on the
    way (a plan cut short can fail in any way) or if it finished anyway (the signal's
    exception was lost inside the engine): see :mod:`trainstack.console.signals`.
    """
    try:
        with stopping_on_signals():
            app()
    except BaseException as error:
        _stopped()
        _fail(error)
    _stopped()


def _stopped() -> None:
    stopped = stop_signal()
    if stopped is not None:
        announce(stopped)
        sys.exit(128 + stopped)


def _fail(error: BaseException) -> None:
    if isinstance(error, TrainstackError):
        print_user_error(error)
        sys.exit(USER_ERROR_EXIT)
    if isinstance(error, Interrupted):  # raised by hand, without a signal
        announce(error.signal_number)
        sys.exit(128 + error.signal_number)
    if not isinstance(error, Exception) or os.environ.get(DEBUG_ENV):
        raise error
    # The message may quote an input value (a secret): only the type and the place.
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    print_error(
        f"internal error ({type(error).__name__}{where}); this is a bug in "
        f"trainstack: please report it with the output of {DEBUG_ENV}=1"
    )
    sys.exit(INTERNAL_ERROR_EXIT)
