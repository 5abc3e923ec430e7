"""Reviewable changes: diffs between stacks or git revisions, and the fairness report.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
    from trainstack.diff.cli import diff
    from trainstack.diff.data_loss import DATA_LOSS
    from trainstack.diff.fairness import classify
    from trainstack.diff.model import Snapshot, StackDiff
    from trainstack.diff.render_markdown import markdown
    from trainstack.diff.render_text import text_lines, write_lines
    from trainstack.diff.snapshot import load_snapshot
    from trainstack.diff.sources import against_base, two_plans, two_stacks

__all__ = [
    "DATA_LOSS",
    "Snapshot",
    "StackDiff",
    "against_base",
    "classify",
    "diff",
    "load_snapshot",
    "markdown",
    "text_lines",
    "two_plans",
    "two_stacks",
    "write_lines",
]

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        cli=["diff"],
        data_loss=["DATA_LOSS"],
        fairness=["classify"],
        model=["Snapshot", "StackDiff"],
        render_markdown=["markdown"],
        render_text=["text_lines", "write_lines"],
        snapshot=["load_snapshot"],
        sources=["against_base", "two_plans", "two_stacks"],
    )
