"""Durations as people write them (``90m``, ``2h30m``, ``45s``): how long a run takes.

The form is Go's ``time.ParseDuration`` restricted to whole hours, minutes and seconds in
that order (what ``kubectl`` and Kueue's timeouts read), so that an experiment file says
``expectedDuration: 1h30m`` and never a bare number whose unit a reader must guess.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from trainstack.core.base_model import constraint
from trainstack.core.limits import MAX_DURATION_SECONDS

_DURATION = re.compile(r"(?:(?P<h>[0-9]{1,4})h)?(?:(?P<m>[0-9]{1,6})m)?(?:(?P<s>[0-9]{1,8})s)?")
ALLOWED = (
    "a duration of whole hours, minutes and seconds in that order, e.g. `90m`, `2h30m` or "
    f"`45s`, above 0 and at most {MAX_DURATION_SECONDS // 3600}h"
)


def seconds_of(text: str) -> int | None:
    """The seconds ``text`` says (``None``: not a duration in the allowed form and range)."""
    match = _DURATION.fullmatch(text)
    if match is None or not text:
        return None
    hours, minutes, seconds = (int(match[part] or 0) for part in ("h", "m", "s"))
    total = hours * 3600 + minutes * 60 + seconds
    return total if 0 < total <= MAX_DURATION_SECONDS else None


def shown_duration(seconds: int) -> str:
    """``2h30m``, ``45s``, ``1h0m5s``: the form :func:`seconds_of` reads (0: ``0s``)."""
    hours, rest = divmod(seconds, 3600)
    minutes, rest = divmod(rest, 60)
    parts = [(hours, "h"), (minutes, "m"), (rest, "s")]
    while parts and parts[-1][0] == 0:
        parts.pop()
    while parts and parts[0][0] == 0:
        parts.pop(0)
    return "".join(f"{value}{unit}" for value, unit in parts) or "0s"


def _duration(text: str) -> str:
    if seconds_of(text) is None:
        raise constraint("", text, ALLOWED)
    return text


Duration = Annotated[str, AfterValidator(_duration)]
"""A duration in the form :func:`seconds_of` reads (``1h30m``)."""
