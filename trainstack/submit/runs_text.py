"""``trainstack runs STACK`` as text: one row per run, oldest first."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.console.safe_text import printable
from trainstack.console.tables import text_table
from trainstack.experiments.overrides import overrides_words
from trainstack.submit.campaign import ttl_words
from trainstack.submit.listing import ListedRun

HEADERS = ["run", "experiment", "kind", "namespace", "phase", "created", "completed", "ttl"]


def runs_text(runs: Sequence[ListedRun], stack: str, where: str) -> str:
    """The runs as an aligned table under a line naming the stack and cluster, then each
    run's ``--set`` values."""
    if not runs:
        return f"stack {stack}, {where}: no run of `trainstack run`\n"
    rows = [
        [
            printable(cell, 80)
            for cell in (
                run.job.name,
                run.job.experiment,
                run.job.spec.kind,
                run.job.namespace,
                run.job.phase,
                run.created or "-",
                run.job.completion_time or "-",
                ttl_words(run.ttl),
            )
        ]
        for run in runs
    ]
    sets = [
        f"overrides {printable(run.job.name, 80)}: {printable(overrides_words(run.overrides))}\n"
        for run in runs
        if run.overrides != {}
    ]
    table = text_table(HEADERS, rows, set())
    return f"stack {stack}, {where}\n\n{table}" + ("\n" + "".join(sets) if sets else "")
