"""``trainstack plan STACK``: what ``pulumi up -s STACK`` would create, without a cloud account."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trainstack.console.terminal import console, print_user_error, stderr_console
from trainstack.core.errors import EnvironmentVariableError, TrainstackError
from trainstack.core.file_names import check_stack_name
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_stack
from trainstack.plan.crd_dir import CRD_DIR_ENV, crd_dir_from

if TYPE_CHECKING:
    from trainstack.plan.model import Plan

DEFAULT_OUTPUT = Path("build/plan")


DIGEST_KEY_PATTERN = re.compile(r"(?:[0-9a-fA-F]{2}){16,64}")


def digest_key_from_environment() -> bytes | None:
    """The secret-digest key a ``trainstack diff`` run hands to the plans it makes."""
    from trainstack.plan.masking import DIGEST_KEY_ENV  # it imports Pulumi: only when planning

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
            help="Stack name, e.g. aiacc or baseline (without one, or --all: the stacks are "
            "listed).",
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
            help="Where to write STACK/resources.json and the YAML views.",
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
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            help="Print every detail of the summary (resource types, images, MPI transport, "
            "what each pod gets, preflight, access, downloads, cost per experiment, notes).",
        ),
    ] = False,
    every: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Plan every stack of the project: data stacks first (each planned once), then "
            "the others by name; each stack's errors are shown and the next one planned.",
        ),
    ] = False,
    use_cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache",
            show_default=False,
            help="Reuse each unchanged release's render and checks from build/cache, unless "
            "--no-cache (docs/planning.md).",
        ),
    ] = True,
) -> None:
    """Run the program under Pulumi's mock engine and write every resource it registers."""
    project = Project.find()
    if every and stack is not None:
        raise TrainstackError(f"give a stack ({stack}) or --all, not both")
    if stack is None and not every:
        _list_stacks(project)
        return
    # The engine, Helm and the plan writer load only when a plan is made: every other
    # command imports this module for its completion and would pay for them at start-up.
    from trainstack.plan.cache import wanted_cache
    from trainstack.plan.render_cache import RenderCache
    from trainstack.plan.runner import plan_stack

    cache = wanted_cache(project.root, use_cache)
    releases = RenderCache(cache) if cache is not None else None
    digest_key = digest_key_from_environment()
    crds = crd_dir_from(crd_dir)
    target = output_dir if output_dir.is_absolute() else Path.cwd() / output_dir
    if stack is not None:
        check_stack_name(stack)
        planned = plan_stack(project, stack, digest_key, crds, releases=releases)
        _plan_one(project, planned, target, verbose)
        return
    memo: dict[str, Plan] = {}
    failed = []
    for name in _data_stacks_first(project):
        try:
            # Data stacks first, each planned once: the cluster stacks read them from `memo`.
            planned = plan_stack(project, name, digest_key, crds, memo, releases)
        except TrainstackError as error:
            print_user_error(error)
            failed.append(name)
            continue
        memo[name] = planned
        _plan_one(project, planned, target, verbose)
    if failed:
        planned_count = len(project.stacks()) - len(failed)
        raise TrainstackError(
            f"{len(failed)} stack(s) did not plan: {', '.join(failed)} (their errors above; "
            f"{planned_count} planned)"
        )


def _data_stacks_first(project: Project) -> list[str]:
    """The project's stacks, data stacks (``trainstack:dataStore``) first, each by name."""
    from trainstack.config.loader import DATA_STORE_KEY  # the stack models: when planning
    from trainstack.config.pulumi_config import read_stack_file

    def is_data_stack(name: str) -> bool:
        try:
            return f"trainstack:{DATA_STORE_KEY}" in read_stack_file(project, name).config
        except TrainstackError:
            return False  # planning it reports why

    return sorted(project.stacks(), key=lambda name: (not is_data_stack(name), name))


def _plan_one(project: Project, result: Plan, target: Path, verbose: bool = False) -> None:
    from trainstack.plan.summary import print_summary
    from trainstack.plan.writer import write_plan

    written = write_plan(result, target)
    print_summary(result, console(), project.display(written), stderr_console(), verbose)


def _list_stacks(project: Project) -> None:
    """``trainstack plan`` alone: the stacks on stdout, how to plan them on stderr (exit 0)."""
    stacks = project.stacks()
    for name in stacks:
        print(name)
    where = project.display(project.stack_config_dir)
    hint = (
        f"plan one with `trainstack plan {stacks[0]}`, every one with `trainstack plan --all`"
        if stacks
        else f"no stack: no Pulumi.<stack>.yaml in {where}"
    )
    stderr_console().print(hint, markup=False, highlight=False)
