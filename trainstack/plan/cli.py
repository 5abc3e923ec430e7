"""``trainstack plan STACK``: what ``pulumi up -s STACK`` would create, without a cloud account."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from trainstack.errors import EnvironmentVariableError
from trainstack.file_names import check_stack_name
from trainstack.plan.conformance import CRD_DIR_ENV, crd_dir_from
from trainstack.plan.masking import DIGEST_KEY_ENV
from trainstack.plan.runner import plan_stack
from trainstack.plan.summary import print_summary
from trainstack.plan.writer import write_plan
from trainstack.project import Project

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
    check_stack_name(stack)
    digest_key = digest_key_from_environment()
    project = Project.find()
    result = plan_stack(project, stack, digest_key, crd_dir_from(crd_dir))
    target = output_dir if output_dir.is_absolute() else Path.cwd() / output_dir
    written = write_plan(result, target)
    print_summary(result, Console(), project.display(written))
