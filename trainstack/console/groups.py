"""Command groups called without a command (``trainstack``, ``trainstack results``): their
help, listing the commands, on stdout and exit status 0. Listing is not an error (click's
``no_args_is_help`` exits 2)."""

from __future__ import annotations

import typer


def help_when_bare(ctx: typer.Context) -> None:
    """A group's callback: without a command, print the group's help and end with 0."""
    if ctx.invoked_subcommand is None and not ctx.resilient_parsing:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
