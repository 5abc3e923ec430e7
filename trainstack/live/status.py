"""``trainstack status STACK``: each experiment's jobs on the cluster, one row per run."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from lightkube.operators import exists

from trainstack.console.safe_text import printable
from trainstack.console.tables import text_table
from trainstack.experiments.lookup import StackRuns
from trainstack.experiments.runs import EXPERIMENT_LABEL
from trainstack.live.cluster import Cluster
from trainstack.live.connect import operator_of
from trainstack.live.data_jobs import DataJobRow, data_job_text
from trainstack.live.jobs import LiveJob, job_reader, pod_ready, role_pods
from trainstack.live.preflight import preflight_reason
from trainstack.metrics import job_duration
from trainstack.training_job.dialects import Dialect
from trainstack.training_job.frameworks import framework


@dataclass(frozen=True)
class StatusRow:
    """One run of one experiment: its job on the cluster, or that there is none."""

    experiment: str
    run: str
    job: str
    kind: str
    phase: str
    pods: str
    started: str
    completed: str
    duration: str
    reason: str = ""
    """The line a pod's preflight failed with (``pod: trainstack preflight: ...``)."""


def status_rows(resolved: StackRuns, cluster: Cluster) -> list[StatusRow]:
    """A row per job found and per configured run not found, sorted by experiment and run."""
    groups: dict[tuple[str, str, Dialect], set[str]] = defaultdict(set)
    for run in resolved.runs:
        groups[(run.namespace, run.job.framework, run.job.operator_api)].add(run.point_name)
    found: dict[str, LiveJob] = {}
    for (namespace, name, dialect), experiments in sorted(groups.items()):
        spec = framework(name)
        jobs = cluster.list_jobs(
            spec,
            namespace,
            {EXPERIMENT_LABEL: exists()},
            job_reader(spec),
            spec.api_version_in(dialect),
        )
        for job in jobs:
            if job.experiment in experiments:
                found[job.name] = job
    rows = [_row(job, resolved, cluster) for job in found.values()]
    for run in resolved.runs:
        if run.release_name not in found:
            kind = framework(run.job.framework).kind
            rows.append(
                StatusRow(
                    run.point_name, str(run.run), run.release_name, kind, "not found", *"----"
                )
            )
    return sorted(rows, key=lambda row: (row.experiment, _number(row.run), row.job))


def _number(run: str) -> int:
    return int(run) if run.isdigit() else 0


def _row(job: LiveJob, resolved: StackRuns, cluster: Cluster) -> StatusRow:
    operator = operator_of(resolved.stack, job.spec)
    pods = role_pods(cluster, job, None, operator)
    ready = sum(1 for pod in pods if pod_ready(pod))
    duration = job_duration(job.status)
    failed = preflight_reason(pods, None if operator is None else operator.role)
    return StatusRow(
        experiment=job.experiment,
        run="-" if job.run is None else str(job.run),
        job=job.name,
        kind=job.spec.kind,
        phase=job.phase,
        pods=f"{ready}/{job.pods_expected}",
        started=job.start_time or "-",
        completed=job.completion_time or "-",
        duration="-" if duration is None else f"{duration.value:g} s",
        reason="" if failed is None else f"{failed[0]}: {failed[1]}",
    )


HEADERS = [
    "experiment",
    "run",
    "job",
    "kind",
    "phase",
    "pods ready",
    "started",
    "completed",
    "duration",
]


def status_text(
    rows: list[StatusRow], stack: str, where: str, data: Sequence[DataJobRow] = ()
) -> str:
    """The rows as an aligned table under one line naming the stack and cluster, then the
    reason of each job whose preflight failed (what the API server sent shown with its
    control characters escaped), then the populate Job of each dataset that has one."""
    cells = [
        [
            printable(cell, 80)
            for cell in (r.experiment, r.run, r.job, r.kind, r.phase, r.pods)
            + (r.started, r.completed, r.duration)
        ]
        for r in rows
    ]
    reasons = [f"reason {printable(r.job, 80)}: {printable(r.reason)}\n" for r in rows if r.reason]
    return (
        f"stack {stack}, {where}\n\n"
        + text_table(HEADERS, cells, {1, 5, 8})
        + ("\n" + "".join(reasons) if reasons else "")
        + ("\n" + data_job_text(data) if data else "")
    )
