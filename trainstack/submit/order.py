"""In what order a campaign's runs are submitted, and how long finished runs are kept."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import zip_longest

from trainstack.core.errors import TrainstackError
from trainstack.core.limits import INT32_MAX
from trainstack.submit.campaign import Campaign
from trainstack.submit.runset import Run

_DURATION = re.compile(r"([0-9]{1,10})([smhd]?)")
_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86_400}


def submission_order(campaigns: Sequence[Campaign], interleave: bool) -> list[tuple[Campaign, Run]]:
    """Every run with its campaign: stack after stack, or (``interleave``) alternating
    between the stacks run by run (a1, b1, a2, b2...), so that a drift of the shared data
    or of the time of day falls on both alike."""
    if not interleave:
        return [(campaign, run) for campaign in campaigns for run in campaign.runs]
    columns = [[(campaign, run) for run in campaign.runs] for campaign in campaigns]
    return [pair for row in zip_longest(*columns) for pair in row if pair is not None]


def parse_duration(text: str) -> int:
    """``7d``, ``12h``, ``30m``, ``90s`` or ``90`` as seconds (at most int32, the field's
    type); an error says what is allowed."""
    found = _DURATION.fullmatch(text)
    seconds = int(found.group(1)) * _SECONDS[found.group(2)] if found else -1
    if not 0 <= seconds <= INT32_MAX:
        raise TrainstackError(
            f"--ttl: found {text[:40]!r}; allowed: a duration such as 7d, 12h, 30m, 90s or "
            f"90 (seconds), at most {INT32_MAX} s; or --keep to keep finished runs"
        )
    return seconds
