"""Following submitted runs until each has ended: ``run --wait``, and one run after another.

Each poll lists the campaign's jobs by its label, once per namespace and kind (one request
for 50 runs), and says every change of phase (the job's conditions, as ``status`` reads
them). A run ends Succeeded or Failed, or ``deleted`` when its job disappears (its TTL
or someone else removed it). Each poll is bounded like a command of its own
(``--timeout``, ``--deadline``); between polls nothing is sent. Ctrl-C stops following,
never the runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trainstack.experiments.runs import CAMPAIGN_LABEL
from trainstack.live.jobs import LiveJob, job_reader
from trainstack.metrics import job_duration
from trainstack.submit.runset import Run
from trainstack.submit.send import Connection
from trainstack.training_job.frameworks import framework

ENDED = frozenset({"Succeeded", "Failed"})
GONE = "deleted"
MISSING = "not found"

pause: Callable[[float], None] = time.sleep
"""How the follower waits between polls (tests replace it)."""


@dataclass(frozen=True)
class Outcome:
    """How one run ended (or where it was when following stopped)."""

    run: Run
    phase: str
    started: str | None = None
    completed: str | None = None
    duration: float | None = None

    @property
    def succeeded(self) -> bool:
        return self.phase == "Succeeded"


def follow(
    watched: Sequence[tuple[Connection, Sequence[Run]]],
    poll: float,
    say: Callable[[str], None],
) -> list[Outcome]:
    """Poll every ``poll`` seconds until each run has ended; each change said on the way."""
    last: dict[tuple[str, str], Outcome] = {}
    seen: set[tuple[str, str]] = set()
    while True:
        for connection, runs in watched:
            connection.cluster.reader.transport.renew()
            jobs = _jobs(connection, runs)
            for run in runs:
                key = (connection.stack, run.name)
                job = jobs.get(run.name)
                if job is not None:
                    seen.add(key)
                    outcome = _outcome(run, job)
                else:
                    outcome = Outcome(run, GONE if key in seen else MISSING)
                before = last.get(key)
                if before is None or before.phase != outcome.phase:
                    was = "submitted" if before is None else before.phase
                    say(f"{connection.stack} {run.name}: {was} -> {outcome.phase}")
                last[key] = outcome
        if all(outcome.phase in ENDED | {GONE, MISSING} for outcome in last.values()):
            return [last[(c.stack, run.name)] for c, runs in watched for run in runs]
        pause(poll)


def _outcome(run: Run, job: LiveJob) -> Outcome:
    duration = job_duration(job.status)
    return Outcome(
        run,
        job.phase,
        job.start_time,
        job.completion_time,
        None if duration is None else duration.value,
    )


def _jobs(connection: Connection, runs: Sequence[Run]) -> dict[str, LiveJob]:
    """The runs' jobs on the cluster, by name: one list per namespace, kind and campaign."""
    groups = {
        (
            run.experiment.namespace,
            run.experiment.job.framework,
            run.experiment.job.operator_api,
            run.experiment.job.labels[CAMPAIGN_LABEL],
        )
        for run in runs
    }
    found: dict[str, LiveJob] = {}
    for namespace, name, dialect, campaign in sorted(groups):
        spec = framework(name)
        for job in connection.cluster.list_jobs(
            spec,
            namespace,
            {CAMPAIGN_LABEL: campaign},
            job_reader(spec),
            spec.api_version_in(dialect),
        ):
            found[job.name] = job
    return found
