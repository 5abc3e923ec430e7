"""What ``trainstack run`` prints: warnings and notes on stderr, the objects of a dry run
and each run's outcome on stdout."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from trainstack.console.safe_text import printable
from trainstack.console.tables import text_table
from trainstack.console.terminal import print_warning, stderr_console
from trainstack.submit.campaign import Campaign, ttl_words
from trainstack.submit.follow import Outcome
from trainstack.submit.objects import documents_text, object_ref
from trainstack.submit.runset import Run


def print_findings(campaigns: Sequence[Campaign]) -> None:
    """The plan's warnings about the experiment, and the campaign's notes (stderr)."""
    err = stderr_console()
    for campaign in campaigns:
        for finding in campaign.prepared.warnings:
            print_warning(f"{campaign.stack}: {finding.located(campaign.prepared.files)}", err)
        for note in campaign.notes:
            print_note(note)


def print_note(text: str) -> None:
    """``note: text`` on stderr."""
    stderr_console().print(f"note: {text}", markup=False, highlight=False, soft_wrap=True)


def print_dry_run(order: Sequence[tuple[Campaign, Run]]) -> None:
    """Every object of every run, in submission order (stdout); what was made (stderr)."""
    documents = [
        (f"run {run.name} on {campaign.stack}: {object_ref(document).shown()}", document)
        for campaign, run in order
        for document in campaign.objects[run.name]
    ]
    sys.stdout.write(documents_text(documents))
    stacks = sorted({campaign.stack for campaign, _ in order})
    sys.stderr.write(
        f"dry run: {len(order)} run(s) on {', '.join(stacks)}, {len(documents)} object(s), "
        "rendered and checked as the plan does; nothing was sent to a cluster\n"
    )


def submitted_line(campaign: Campaign, run: Run) -> str:
    """``submitted NAME to STACK: MPIJob vision/NAME, queued in vision; kept 7 day(s)...``"""
    job = object_ref(campaign.objects[run.name][0])
    queue = f", queued by Kueue for team {run.experiment.team}" if run.experiment.queued else ""
    kept = (
        f"deleted {ttl_words(run.ttl)} after it ends"
        if run.ttl is not None
        else f"kept after it ends (`trainstack runs {campaign.stack} --delete {run.name}`)"
    )
    return f"submitted {run.name} to {campaign.stack}: {job.shown()}{queue}; {kept}"


HEADERS = ["stack", "run", "phase", "started", "completed", "duration"]


def outcomes_text(outcomes: Sequence[Outcome]) -> str:
    """One row per run: how it ended."""
    rows = [
        [
            outcome.run.stack,
            outcome.run.name,
            printable(outcome.phase, 40),
            printable(outcome.started or "-", 40),
            printable(outcome.completed or "-", 40),
            "-" if outcome.duration is None else f"{outcome.duration:g} s",
        ]
        for outcome in outcomes
    ]
    failed = sum(1 for outcome in outcomes if not outcome.succeeded)
    summary = f"{len(outcomes) - failed} of {len(outcomes)} run(s) succeeded\n"
    return text_table(HEADERS, rows, {5}) + summary
