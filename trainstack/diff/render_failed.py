"""The pull-request comment of a diff that could not be made: it failed, and why.

A plan that fails (an invalid stack file, a plan-time check) leaves no diff to show; a
comment that kept the previous run's diff would tell reviewers that the last good change
is what this one does. So ``trainstack diff --format markdown`` writes this comment
instead (and still exits 2): the workflow posts it in the previous comment's place.
"""

from __future__ import annotations

from trainstack.console.markdown import code_span
from trainstack.core.errors import TrainstackError
from trainstack.core.yaml.positions import at

FAILED_LIMIT = 60
"""Errors listed in the comment; the rest are counted (the job's log has them all)."""


def failed_markdown(error: TrainstackError) -> str:
    """``### trainstack diff`` saying the plan failed, with each error (``file:LINE``)."""
    lines = error.lines(at)
    shown = [f"- {code_span(f'error: {line}')}" for line in lines[:FAILED_LIMIT]]
    if len(lines) > FAILED_LIMIT:
        shown.append(f"- and {len(lines) - FAILED_LIMIT} more error(s): see the job's log")
    heading = (
        f"**Failed:** no diff could be made ({len(lines)} error(s)), so this comment shows "
        "no changes; fix the errors below and push again (`trainstack plan STACK` shows "
        "them locally)."
    )
    return "\n".join(["### trainstack diff", "", "> [!CAUTION]", f"> {heading}", "", *shown, ""])
