"""The node check's log cut into one section per tool (the markers of
:data:`trainstack.health.jobs.NODE_SCRIPT`), each with the exit status it ended with."""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainstack.health.jobs import MARK

_EXIT = re.compile(rf"^{re.escape(MARK)} exit (?P<status>\d+)\s*$")
_START = re.compile(rf"^{re.escape(MARK)} (?P<name>.+?)\s*$")


@dataclass(frozen=True)
class Section:
    """One tool's output: its lines, and its exit status (``None``: the log ends first)."""

    name: str
    text: str
    status: int | None


def sections(log: str) -> dict[str, Section]:
    """Each tool's section by the name its marker gives; text outside markers is dropped."""
    found: dict[str, Section] = {}
    name: str | None = None
    lines: list[str] = []
    for line in log.splitlines():
        ended = _EXIT.match(line)
        if ended is not None and name is not None:
            found[name] = Section(name, "\n".join(lines), int(ended["status"]))
            name, lines = None, []
            continue
        started = _START.match(line)
        if started is not None and ended is None:
            if name is not None:
                found[name] = Section(name, "\n".join(lines), None)
            name, lines = started["name"], []
            continue
        if name is not None:
            lines.append(line)
    if name is not None:
        found[name] = Section(name, "\n".join(lines), None)
    return found
