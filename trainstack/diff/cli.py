"""``trainstack diff``: what changes between two stacks, or between a git revision and now.

Exit status: 0 no changes (with ``--fairness``: the stacks compare fairly), 1 changes
(with ``--fairness``: a difference that is neither acceleration nor cluster identity),
2 an error (one line on stderr, printed by ``trainstack.cli``), 3 changes that delete or
replace a data-bearing resource (see :mod:`trainstack.diff.data_loss`): a pipeline can
require an approval for them. A change of an input the cloud reads at creation only (see
:mod:`trainstack.diff.not_applied`) is flagged but has no status of its own: 1, or 3
with data at risk.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from trainstack.console import terminal
from trainstack.core.errors import DiffError, TrainstackError
from trainstack.core.project import Project
from trainstack.diff.budget import GITHUB_COMMENT_LIMIT
from trainstack.experiments.completion import complete_stack
from trainstack.results.health import (
    MAX_AGE_HOURS,
    TOLERANCE_PERCENT,
    HealthMaxAge,
    HealthTolerance,
)

if TYPE_CHECKING:
    from trainstack.diff.environment import EnvironmentReport
    from trainstack.diff.fairness import Finding
    from trainstack.diff.sources import Compared
    from trainstack.health.verdict import HealthReport

NO_CHANGES, CHANGES = 0, 1


def colour_wanted() -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return terminal.colour_wanted(sys.stdout)


class OutputFormat(StrEnum):
    """How the report is printed."""

    text = "text"
    markdown = "markdown"
    json = "json"


def _failure_commented(command: Callable[..., None]) -> Callable[..., None]:
    """The command, whose failure (a plan that fails, a bad revision) still makes the PR
    comment with ``--format markdown``: it says so and why, in the previous comment's
    place (:mod:`trainstack.diff.render_failed`); the error is raised on (exit 2)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except TrainstackError as error:
            if kwargs.get("output_format") is OutputFormat.markdown:
                from trainstack.diff.render_failed import failed_markdown

                sys.stdout.write(failed_markdown(error))
            raise

    return run


@_failure_commented
def diff(
    stacks: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="STACK",
            help="Two stacks to compare (A B); with --base, the stacks to compare "
            "(default: every stack).",
            show_default=False,
            autocompletion=complete_stack,
        ),
    ] = None,
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            metavar="GIT_REF",
            help="Compare each stack planned at this git revision with the working tree.",
        ),
    ] = None,
    plans: Annotated[
        tuple[Path, Path] | None,
        typer.Option(
            "--plans",
            metavar="DIR_A DIR_B",
            help="Compare two plan directories made earlier (DIR/STACK of `trainstack plan`).",
        ),
    ] = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="text, markdown for a PR comment, or json for scripts (docs/scripting.md).",
        ),
    ] = OutputFormat.text,
    fairness: Annotated[
        bool,
        typer.Option(
            "--fairness",
            help="Report whether two stacks differ only in acceleration and cluster identity.",
        ),
    ] = False,
    max_chars: Annotated[
        int,
        typer.Option(
            "--max-chars",
            min=2000,
            metavar="N",
            help="Markdown: cut the report to this length (at least 2000).",
        ),
    ] = GITHUB_COMMENT_LIMIT,
    context_lines: Annotated[
        int,
        typer.Option(
            "--unified",
            "-U",
            min=0,
            metavar="N",
            help="Lines of context around changes (as git diff -U).",
        ),
    ] = 3,
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="Show derived content whole: each pod's preflight script and the "
            "base-values digest (summarised by default, docs/reviewing-changes.md).",
        ),
    ] = False,
    health_tolerance: HealthTolerance = TOLERANCE_PERCENT,
    health_max_age: HealthMaxAge = MAX_AGE_HOURS,
    use_cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache",
            show_default=False,
            help="Reuse plans of unchanged sides from build/cache, unless --no-cache "
            "(docs/reviewing-changes.md).",
        ),
    ] = True,
) -> None:
    """Show what differs between two stacks, or between a git revision and the working tree."""
    # Imported here: planning pulls in Pulumi and Helm, which other commands need not load.
    from trainstack.diff.environment import environment_report, not_compared
    from trainstack.diff.fairness_results import results_findings
    from trainstack.diff.sources import against_base, two_plans, two_stacks
    from trainstack.health.gate import health_report

    names = list(stacks or [])
    health: HealthReport | None = None
    recorded: tuple[list[Finding], list[str]] = ([], [])
    environment = not_compared("--plans compares plan directories, whose clusters are unknown")
    if sum(mode is not None for mode in (base, plans)) > 1:
        raise DiffError("give either --base GIT_REF or --plans DIR_A DIR_B, not both")
    if plans is not None:
        if names:
            raise DiffError(f"--plans compares two plan directories; drop the stacks {names}")
        compared = [two_plans(plans[0], plans[1], context_lines, full)]
    elif base is not None:
        if fairness:
            raise DiffError("--fairness compares two stacks (A B), not a stack with --base")
        compared = against_base(Project.find(), base, names, context_lines, use_cache, full)
    else:
        if len(names) != 2:
            raise DiffError(
                f"give two stacks to compare (e.g. `trainstack diff aiacc baseline`), "
                f"found {len(names)}; or --base GIT_REF, or --plans DIR_A DIR_B"
            )
        project = Project.find()
        compared = [two_stacks(project, names[0], names[1], context_lines, use_cache, full)]
        if fairness:
            environment = environment_report(project.root, names[0], names[1], project.display)
            health = health_report(
                project.root,
                names[0],
                names[1],
                project.display,
                health_tolerance / 100,
                health_max_age,
            )
            recorded = results_findings(project.root, names[0], names[1], project.display)
    status = (
        _report_fairness(compared[0], output_format, max_chars, environment, health, recorded)
        if fairness
        else (_report_diff(compared, output_format, max_chars))
    )
    if status != NO_CHANGES:
        raise typer.Exit(status)


def _report_diff(compared: list[Compared], output_format: OutputFormat, max_chars: int) -> int:
    from trainstack.diff.render_markdown import markdown
    from trainstack.diff.render_text import text_lines, write_lines

    diffs = [item.diff for item in compared]
    if output_format is OutputFormat.json:
        from trainstack.diff.render_json import diff_json

        sys.stdout.write(diff_json(diffs))
    elif output_format is OutputFormat.markdown:
        sys.stdout.write(markdown(diffs, max_chars))
    else:
        write_lines(text_lines(diffs), sys.stdout, colour=colour_wanted())
    if any(item.data_risks for item in diffs):
        from trainstack.diff.data_loss import DATA_LOSS  # it loads the plan model

        return DATA_LOSS
    return CHANGES if any(item.has_changes for item in diffs) else NO_CHANGES


def _report_fairness(
    compared: Compared,
    output_format: OutputFormat,
    max_chars: int,
    environment: EnvironmentReport,
    health: HealthReport | None,
    recorded: tuple[list[Finding], list[str]],
) -> int:
    import dataclasses

    from trainstack.diff.fairness import classify
    from trainstack.diff.render_fairness import fairness_lines, fairness_markdown
    from trainstack.diff.render_text import write_lines

    report = classify(compared.diff, compared.before, compared.after)
    # what the runs recorded on both stacks read (trainstack.diff.fairness_results)
    findings, notes = recorded
    report = dataclasses.replace(
        report,
        findings=(*report.findings, *findings),
        notes=(*report.notes, *notes),
        environment=environment,
        health=health,
    )
    if output_format is OutputFormat.json:
        from trainstack.diff.render_json import diff_json

        sys.stdout.write(diff_json([compared.diff], report))
    elif output_format is OutputFormat.markdown:
        sys.stdout.write(fairness_markdown(report, max_chars))
    else:
        write_lines(fairness_lines(report), sys.stdout, colour=colour_wanted())
    return NO_CHANGES if report.fair else CHANGES
