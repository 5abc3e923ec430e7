"""``trainstack plan STACK``: what ``pulumi up -s STACK`` would create, without a cloud account."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from trainstack.plan.conformance import CRD_DIR_ENV, crd_dir_from
from trainstack.plan.masking import DIGEST_KEY_ENV
from trainstack.plan.runner import plan_stack
from trainstack.plan.summary import print_summary
from trainstack.plan.writer import write_plan
from trainstack.project import Project

DEFAULT_OUTPUT = Path("build/plan")


def digest_key_from_environment() -> bytes | None:
    """The secret-digest key a ``trainstack diff`` run hands to the plans it makes."""
    value = os.environ.get(DIGEST_KEY_ENV)
    return bytes.fromhex(value) if value else None


def plan(
    stack: Annotated[str, typer.Argument(help="Stack name, e.g. aiacc or baseline.")],
    output_dir: Annotated[
        Path,
        typer.Option(
            "--output-dir", "-o", help="Where to write <stack>/resources.json and the YAML views."
        ),
    ] = DEFAULT_OUTPUT,
    crd_dir: Annotated[
        Path | None,
        typer.Option(
            "--crd-dir",
            help=f"CRD schemas to check custom resources against (default: ${CRD_DIR_ENV}).",
        ),
    ] = None,
) -> None:
    """Run the program under Pulumi's mock engine and write every resource it registers."""
    project = Project.find()
    result = plan_stack(project, stack, digest_key_from_environment(), crd_dir_from(crd_dir))
    target = output_dir if output_dir.is_absolute() else Path.cwd() / output_dir
    written = write_plan(result, target)
    print_summary(result, Console(), project.display(written))
