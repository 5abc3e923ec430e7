"""Submitting the runs of checked campaigns: all names checked free and all objects through
the servers' dry runs first, then applied, at once or one after another."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from trainstack.core.errors import ClusterError, TrainstackError
from trainstack.live.options import ClusterOptions
from trainstack.submit.campaign import Campaign
from trainstack.submit.follow import Outcome, follow
from trainstack.submit.report import outcomes_text, submitted_line
from trainstack.submit.runset import Run
from trainstack.submit.send import Connection, apply_run, check_names_free, connect_all, dry_run


@dataclass(frozen=True)
class Settings:
    """How the runs are submitted and followed."""

    at_once: bool
    wait: bool
    server_dry_run: bool
    poll: float


def submit(
    campaigns: Sequence[Campaign],
    order: Sequence[tuple[Campaign, Run]],
    settings: Settings,
    options: ClusterOptions,
) -> bool:
    """Submit ``order``; whether every followed run succeeded (``True`` when none is)."""
    connections = connect_all(campaigns, options)
    objects = 0
    for campaign in campaigns:
        check_names_free(connections[campaign.stack], campaign)
    for campaign in campaigns:
        objects += dry_run(connections[campaign.stack], campaign)
    _say(
        f"server dry run passed: {len(order)} run(s), {objects} object(s) on "
        f"{', '.join(c.stack for c in campaigns)}"
    )
    if settings.server_dry_run:
        _say("nothing was created (--server-dry-run)")
        return True
    sequential = not settings.at_once and len(order) > 1
    outcomes: list[Outcome] = []
    submitted = 0
    try:
        if sequential:
            for campaign, run in order:
                connection = connections[campaign.stack]
                _apply(connection, campaign, run)
                submitted += 1
                outcomes += follow([(connection, [run])], settings.poll, _say)
        else:
            for campaign, run in order:
                _apply(connections[campaign.stack], campaign, run)
                submitted += 1
            if settings.wait:
                watched = [(connections[c.stack], c.runs) for c in campaigns]
                outcomes = follow(watched, settings.poll, _say)
    except ClusterError as error:  # a refusal: what exists, and what does not
        if submitted:
            raise ClusterError(f"{error}; {_stopped(order, submitted)}") from None
        raise
    except BaseException:  # a signal
        if submitted:
            _say(_stopped(order, submitted))
        raise
    if not outcomes:
        return True
    sys.stdout.write(outcomes_text(outcomes))
    return all(outcome.succeeded for outcome in outcomes)


def _stopped(order: Sequence[tuple[Campaign, Run]], submitted: int) -> str:
    stacks = ", ".join(dict.fromkeys(campaign.stack for campaign, _ in order[:submitted]))
    return (
        f"stopped: the {submitted} of {len(order)} run(s) submitted go on (`trainstack runs "
        f"STACK` shows them on {stacks}); the others were not submitted"
    )


def _apply(connection: Connection, campaign: Campaign, run: Run) -> None:
    apply_run(connection, campaign, run)
    sys.stdout.write(submitted_line(campaign, run) + "\n")
    sys.stdout.flush()


def check_queued(order: Sequence[tuple[Campaign, Run]]) -> None:
    """``--at-once`` only for runs Kueue holds until their team's quota admits them: runs
    started at once outside a queue would compete for the GPUs and half-start."""
    for campaign, run in order:
        if not run.experiment.queued:
            raise TrainstackError(
                f"--at-once: {run.experiment.point_name} is not queued by Kueue on stack "
                f"{campaign.stack} (no queueing, no team, or an operator that cannot suspend "
                "it): its runs would start together and compete for the GPUs; run them one "
                "after another (without --at-once)"
            )


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
