"""``trainstack results add STACK EXPERIMENT LOGFILE...``: record runs from saved logs.

For logs saved by hand (``arena logs``, ``kubectl logs``): the run is recorded with the
digest of the experiment's base values as the stack's files declare them now.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments
from trainstack.results.build import measurements, pending_run, read_log_file
from trainstack.results.store import Written, write_runs


def add_logs(project: Project, stack: str, experiment: str, logs: Sequence[Path]) -> list[Written]:
    """Parse every log first (any error: nothing written), then record one run per log."""
    resolved = load_stack_experiments(project, stack)
    first = resolved.runs_of(experiment)[0]
    pending = []
    for path in logs:
        data, truncated = read_log_file(path)
        metrics = measurements(data, first, project.display(path))
        pending.append(
            pending_run(stack, first, data, truncated, metrics, digest=first.base_digest)
        )
    return write_runs(project.root, pending, project.display)
