"""``trainstack docs``: write and check the documentation site's generated reference pages.

The generators (and the models they walk) are imported by the commands that use them, so
that other commands do not pay for them at start-up.
"""

from __future__ import annotations

import typer

from trainstack.console.commands import App
from trainstack.core.project import Project

REFERENCE_DIR = "docs/reference"

docs_app = App(
    help="Write and check the generated pages of the documentation site (docs/reference/).",
    no_args_is_help=True,
)


@docs_app.command(short_help="Write docs/reference/ from the models and commands.")
def generate(context: typer.Context) -> None:
    """Write docs/reference/: the configuration keys, the chart's values and the commands,
    from the models' field descriptions and the command line's own help."""
    from trainstack.reference.pages import write_pages

    directory = Project.find().root / REFERENCE_DIR
    written = write_pages(directory, context.find_root().command)
    typer.echo(f"wrote {len(written)} generated pages to {directory}")


@docs_app.command(short_help="Fail when docs/reference/ drifts from the code.")
def check(context: typer.Context) -> None:
    """Fail (exit 2) naming each page of docs/reference/ that differs from what
    `trainstack docs generate` writes."""
    from trainstack.reference.pages import check_pages

    directory = Project.find().root / REFERENCE_DIR
    check_pages(directory, context.find_root().command)
    typer.echo(f"{directory} is up to date with the code")
