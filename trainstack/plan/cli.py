"""``trainstack plan STACK``: what ``pulumi up -s STACK`` would create, without a cloud account."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated

import typer

from trainstack.console.terminal import console, stderr_console
from trainstack.core.errors import EnvironmentVariableError, StackNotGivenError
from trainstack.core.file_names import check_stack_name
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_stack
from trainstack.plan.conformance import CRD_DIR_ENV, crd_dir_from
from trainstack.plan.masking import DIGEST_KEY_ENV
from trainstack.plan.runner import plan_stack
from trainstack.plan.summary import print_summary
from trainstack.plan.writer import write_plan

DEFAULT_OUTPUT = Path("build/plan")


DIGEST_KEY_PATTERN = re.compile(r"(?:[0-9a-fA-F]{2}){16,64}")


def digest_key_from_environment() -> bytes | None:
    """The secret-digest key a ``trainstack diff`` run hands to the plans it makes."""
    value = os.environ.get(DIGEST_KEY_ENV)
    if not value:
        return None
    if DIGEST_KEY_PATTERN.fullmatch(value) is None:
        raise EnvironmentVariableError(
            DIGEST_KEY_ENV,
            f"{len(value)} characters that are not an even number of hex digits (not shown)",
            "32 to 128 hexadecimal digits (16 to 64 bytes), e.g. from `openssl rand -hex 32`",
        )
    return bytes.fromhex(value)


def plan(
    stack: Annotated[
        str | None,
        typer.Argument(
            metavar="STACK",
            help="Stack name, e.g. aiacc or baseline (without one: the stacks are listed).",
            autocompletion=complete_stack,
            show_default=False,
        ),
    ] = None,
    output_dir: Annotated[
        Path,
        typer.Option(
            "--output-dir",
            "-o",
            metavar="DIR",
            help="Where to write <stack>/resources.json and the YAML views.",
        ),
    ] = DEFAULT_OUTPUT,
    crd_dir: Annotated[
        Path | None,
        typer.Option(
            "--crd-dir",
            metavar="DIR",
            help=f"CRD schemas to check custom resources against (default: ${CRD_DIR_ENV}).",
        ),
    ] = None,
) -> None:
    """Run the program under Pulumi's mock engine and write every resource it registers."""
    project = Project.find()
    if stack is None:
        stacks = project.stacks()
        for name in stacks:
            print(name)
        raise StackNotGivenError("plan", stacks, project.display(project.stack_config_dir))
    check_stack_name(stack)
    digest_key = digest_key_from_environment()
    result = plan_stack(project, stack, digest_key, crd_dir_from(crd_dir))
    target = output_dir if output_dir.is_absolute() else Path.cwd() / output_dir
    written = write_plan(result, target)
    print_summary(result, console(), project.display(written), stderr_console())
