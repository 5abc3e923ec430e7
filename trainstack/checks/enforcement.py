"""How each team's share is enforced: by its ResourceQuota, by Kueue, or by both.

In a cohort Kueue lends a team the quota other teams leave idle; a job it admits that
way must not be refused by the team's ResourceQuota, so the ResourceQuota could be
raised to what the team may borrow. That is safe only when *every* job of the team goes
through Kueue: a job that is not queued (its operator cannot suspend it, or it has no
team queue) starts at ``pulumi up`` and only the ResourceQuota holds it to the share.
So the ResourceQuota is raised only for a team whose jobs are all queued; otherwise it
stays at the share and a job that cannot be queued never makes it larger.

Jobs members create by hand without the queue label are not counted here: they are
held by the ResourceQuota alone (docs/teams.md says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from trainstack.config.stack import StackConfig
from trainstack.config.teams import Amounts, Team
from trainstack.experiments.resolve import Experiment

Enforcer = Literal["ResourceQuota", "Kueue", "both"]
_LISTED = 3


@dataclass(frozen=True)
class Enforcement:
    """A team's share, what its ResourceQuota allows, and who keeps it to the share."""

    team: str
    share: Amounts
    ceiling: Amounts
    """The ResourceQuota's amounts: the share, or the borrowing ceiling (see module doc)."""
    by: Enforcer
    reason: str

    @property
    def raised(self) -> bool:
        """The ResourceQuota allows more than the share (Kueue keeps the team to it)."""
        return self.ceiling != self.share


def enforcement(config: StackConfig, experiments: Sequence[Experiment]) -> dict[str, Enforcement]:
    """Per team name, how its share is enforced on this stack."""
    return {team.name: _team(config, team, experiments) for team in config.teams}


def _team(config: StackConfig, team: Team, experiments: Sequence[Experiment]) -> Enforcement:
    share = config.share(team)
    if not config.queueing.enabled:
        return Enforcement(team.name, share, share, "ResourceQuota", "no queueing")
    unqueued = [e.release_name for e in experiments if e.team == team.name and not e.queued]
    if unqueued:
        listed = ", ".join(unqueued[:_LISTED]) + (
            f" and {len(unqueued) - _LISTED} more" if len(unqueued) > _LISTED else ""
        )
        reason = (
            f"{len(unqueued)} job(s) not queued ({listed}): the ResourceQuota stays at the "
            "share, Kueue holds the queued ones to it"
        )
        return Enforcement(team.name, share, share, "both", reason)
    ceiling = config.borrowing_ceiling(team)
    if ceiling == share:
        reason = "every job queued; nothing to borrow (no cohort or no idle quota)"
        return Enforcement(team.name, share, share, "both", reason)
    reason = (
        f"every job queued: Kueue admits within the share and lends idle quota of cohort "
        f"{config.queueing.cohort}; the ResourceQuota allows the borrowing ceiling "
        f"({ceiling.gpu} GPUs)"
    )
    return Enforcement(team.name, share, ceiling, "Kueue", reason)
