"""The plan's warnings on stderr, and how the default summary keeps them short at scale.

Every warning is in the plan's ``review.json`` and ``--verbose`` prints each. The default
summary prints the first :data:`WARNINGS_EACH` of one kind (its id: ``[openMpiPtrace]``)
in full, with where to acknowledge them, and counts the rest of that kind in one line:
a stack of 1,000 generated experiments printed 1,666 lines of warnings of three kinds.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from rich.console import Console

from trainstack.checks import Finding
from trainstack.checks.acknowledge import how_to_acknowledge
from trainstack.config.loader import LoadedStack
from trainstack.console.terminal import print_warning, stderr_console
from trainstack.plan.model import Plan

WARNINGS_EACH = 5
"""Warnings of one kind the default summary prints in full before it counts the rest."""
NAMED = 3
"""Experiments the line counting the rest names before "…"."""


def print_warnings(
    plan: Plan, stack: LoadedStack, err: Console | None = None, verbose: bool = True
) -> int:
    """Each warning with where to acknowledge it (the default summary: the first few of
    each kind, then a count of that kind's others); how many were counted, not printed."""
    err = err or stderr_console()
    kinds: dict[str, list[Finding]] = defaultdict(list)
    for warning in plan.warnings:
        kinds[warning.check].append(warning)
    met: Counter[str] = Counter()
    counted = 0
    for warning in plan.warnings:
        kind = kinds[warning.check]
        met[warning.check] += 1
        shown = len(kind) if verbose else min(len(kind), WARNINGS_EACH)
        if met[warning.check] <= shown:
            print_warning(warning.located(plan.files), err)
            hint = how_to_acknowledge(warning, stack.config, stack.source)
            if hint:
                err.print(f"  {hint}", markup=False, soft_wrap=True)
        if met[warning.check] == shown < len(kind):
            counted += len(kind) - shown
            print_warning(_more(warning.check, kind[shown:]), err)
    return counted


def _more(check: str, rest: list[Finding]) -> str:
    """The line that counts the warnings of one kind the summary does not print."""
    names = list(dict.fromkeys(warning.experiment for warning in rest))
    named = ", ".join(names[:NAMED]) + (", …" if len(names) > NAMED else "")
    return (
        f"{len(rest)} more [{check}] warning(s), of {len(names)} experiment(s) ({named}): "
        "`trainstack plan --verbose` prints each with where to acknowledge it; the plan's "
        "review.json lists them all"
    )
