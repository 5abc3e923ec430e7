"""``trainstack run EXPERIMENT --stack STACK``: runs of an experiment, without a deployment.

Every stack's runs are made and checked offline first (as the plan makes and checks the
experiment), then each cluster is asked: names free, every object through a server dry
run, and only then applied (:mod:`trainstack.submit.send`). One after another by default
(each run starts when the one before has ended), or ``--at-once`` for Kueue to queue.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from trainstack.core.errors import PlaceholderError, TrainstackError
from trainstack.core.limits import MAX_RUNS
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_experiment, complete_stack
from trainstack.live import options
from trainstack.live.options import ClusterOptions
from trainstack.submit.options import CrdDir, Sets, SetStrings

DEFAULT_TTL = "7d"
DEFAULT_POLL = 15.0


def run(
    experiment: Annotated[
        str,
        typer.Argument(
            metavar="EXPERIMENT",
            help="Experiment, matrix (every point), matrix point, or experiment file.",
            autocompletion=complete_experiment,
            show_default=False,
        ),
    ],
    stack: Annotated[
        list[str] | None,
        typer.Option(
            "--stack",
            "-s",
            metavar="STACK",
            help="The stack to run on (repeatable).",
            autocompletion=complete_stack,
        ),
    ] = None,
    stacks: Annotated[
        str | None,
        typer.Option("--stacks", metavar="STACK,STACK", help="Several stacks: aiacc,baseline."),
    ] = None,
    sets: Sets = None,
    set_strings: SetStrings = None,
    runs: Annotated[
        int,
        typer.Option(
            "--runs", min=1, max=MAX_RUNS, metavar="N", help="Runs per stack (and point)."
        ),
    ] = 1,
    at_once: Annotated[
        bool,
        typer.Option(
            "--at-once", help="Submit every run now, for Kueue to queue (queued experiments only)."
        ),
    ] = False,
    interleave: Annotated[
        bool, typer.Option("--interleave", help="Alternate the stacks run by run.")
    ] = False,
    wait: Annotated[
        bool, typer.Option("--wait", help="Follow the runs until they end; exit 1 if one failed.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the objects; no cluster is contacted.")
    ] = False,
    server_dry_run: Annotated[
        bool,
        typer.Option("--server-dry-run", help="Stop after the server's dry run: nothing created."),
    ] = False,
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="NAME", help="The run's name (NAME-1... for several runs)."),
    ] = None,
    ttl: Annotated[
        str,
        typer.Option(
            "--ttl",
            metavar="DURATION",
            help="How long the operator keeps a finished run: 7d, 12h, 90s.",
        ),
    ] = DEFAULT_TTL,
    keep: Annotated[bool, typer.Option("--keep", help="Keep finished runs (no TTL).")] = False,
    poll: Annotated[
        float,
        typer.Option(
            "--poll", min=1.0, metavar="SECONDS", help="Seconds between two looks at the runs."
        ),
    ] = DEFAULT_POLL,
    crd_dir: CrdDir = None,
    kubeconfig: options.Kubeconfig = None,
    context: options.Context = None,
    timeout: options.Timeout = options.DEFAULT_TIMEOUT,
    deadline: options.Deadline = options.DEFAULT_DEADLINE,
) -> None:
    """Run an experiment on stacks' clusters, as the plan renders and checks it."""
    from trainstack.experiments.overrides import parse_overrides
    from trainstack.plan.crd_dir import crd_dir_from
    from trainstack.submit.campaign import Request, make_campaign
    from trainstack.submit.order import parse_duration, submission_order
    from trainstack.submit.report import print_dry_run, print_findings, print_note
    from trainstack.submit.runset import campaign_id
    from trainstack.submit.submitting import Settings, check_queued, submit

    project = Project.find()
    chosen = _stacks(stack or [], stacks)
    if interleave and len(chosen) < 2:
        raise TrainstackError("--interleave alternates stacks: give several, e.g. --stacks A,B")
    if len(chosen) > 1 and context is not None:
        raise TrainstackError("--context names one stack's cluster: give one stack with it")
    request = Request(
        experiment,
        parse_overrides(sets or [], set_strings or []),
        runs,
        name,
        None if keep else parse_duration(ttl),
        crd_dir_from(crd_dir),
    )
    campaign = campaign_id()
    campaigns = [make_campaign(project, one, request, campaign) for one in chosen]
    print_findings(campaigns)
    order = submission_order(campaigns, interleave)
    if at_once:
        check_queued(order)
    for made in campaigns:
        found = made.prepared.placeholders()
        if found and not dry_run:
            raise PlaceholderError(made.prepared.stack.source, found)
        for key, value in found:
            print_note(f"{made.stack}: set before submitting: {key}: {value}")
    if dry_run:
        print_dry_run(order)
        return
    settings = Settings(at_once, wait, server_dry_run, poll)
    cluster = ClusterOptions(kubeconfig, context, timeout, deadline)
    if not submit(campaigns, order, settings, cluster):
        sys.stderr.flush()
        raise typer.Exit(1)


def _stacks(repeated: list[str], listed: str | None) -> list[str]:
    """``--stack`` values then ``--stacks`` ones, each once, at least one."""
    names = [*repeated, *(part.strip() for part in (listed or "").split(",") if part.strip())]
    if not names:
        raise TrainstackError("give the stack to run on: --stack STACK (or --stacks A,B)")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TrainstackError(f"stack {twice[0]!r} is given twice; give each stack once")
    return names
