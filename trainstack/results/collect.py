"""``trainstack results collect STACK [EXPERIMENT...]``: record finished runs from the cluster.

For each experiment, every job labelled with it is read: its run and base-values digest
(annotations), status, the log of the role that reports results and where its pods ran
(:mod:`trainstack.live.environment`), the manifest digest of each dataset its preflight
read (:mod:`trainstack.results.datasets`), then its GPUs' telemetry and goodput
(:mod:`trainstack.results.collect_telemetry`). Succeeded and failed jobs are recorded (a
failed one with whatever metrics its log has: scoring rules count it); running jobs and
jobs whose pods are gone are reported and skipped; every log is parsed before anything is
written, so a log without its metrics stops the command with nothing recorded.

The runs ``trainstack run`` created carry the same label, no run number and their
``--set`` values: they are numbered after the runs already recorded, in the order they
were created, and each is read as the experiment that ran (the stack's, with its
``--set`` values: its shape, its digest), which its record keeps (``overrides``). An
experiment the stack does not select is collected when named.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from trainstack.console.safe_text import printable
from trainstack.core.errors import (
    ClusterError,
    InvalidInputError,
    JobNotFoundError,
    LogError,
    UnknownExperimentError,
)
from trainstack.core.names import SHA256_DIGEST_PATTERN
from trainstack.core.project import Project
from trainstack.experiments.lookup import StackRuns, load_stack_experiments
from trainstack.experiments.overrides import overrides_words, read_recorded
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.runs import OVERRIDES_ANNOTATION
from trainstack.live.cluster import Cluster
from trainstack.live.connect import connect, connect_reader, operator_of
from trainstack.live.environment import RunEnvironments
from trainstack.live.jobs import LiveJob, experiment_jobs, role_pods, training_container
from trainstack.live.options import ClusterOptions
from trainstack.live.preflight import preflight_reason
from trainstack.metrics import job_duration
from trainstack.results.build import MAX_LOG_BYTES, measurements, pending_run, shape_of
from trainstack.results.collect_telemetry import RunExtras
from trainstack.results.datasets import MAX_LINES, read_lines
from trainstack.results.record import JobInfo
from trainstack.results.store import PendingRun, Written, write_runs
from trainstack.training_job.frameworks import framework
from trainstack.training_job.preflight import CONTAINER as PREFLIGHT

PREFLIGHT_LOG_BYTES = 256 * 1024
"""The most of a preflight's log asked for (its dataset lines and checks take a few KiB).
The API server stops near it ("may return slightly more or slightly less":
PodLogOptions.LimitBytes, kubernetes/api 3fed8b5a core/v1/types.go); at most 1,000
lines are looked at (:data:`trainstack.results.datasets.MAX_LINES`)."""


def collect_runs(
    project: Project, stack: str, experiments: Sequence[str], options: ClusterOptions
) -> tuple[list[Written], list[str]]:
    """Record what finished; return what was written and notes on what was skipped."""
    resolved = load_stack_experiments(project, stack)
    names = list(dict.fromkeys(experiments)) or resolved.names()
    firsts = [_first(resolved, name) for name in names]
    cluster = connect(resolved.stack, options)
    environments = RunEnvironments(
        lambda: connect_reader(resolved.stack, options), resolved.stack.config
    )
    extras = RunExtras(resolved.stack.config, lambda: environments.reader, options)
    pending: list[PendingRun] = []
    notes: list[str] = []
    for experiment in firsts:
        for job in experiment_jobs(cluster, experiment):
            item = _pending(
                resolved, cluster, environments, experiment.point_name, job, notes, extras
            )
            if item is not None:
                pending.append(item)
        if not any(p.record.experiment == experiment.point_name for p in pending):
            if not any(note.startswith(f"{experiment.point_name}:") for note in notes):
                notes.append(f"{experiment.point_name}: no job on the cluster")
    notes += extras.closing_notes()
    return write_runs(project.root, pending, project.display), notes


def _pending(
    resolved: StackRuns,
    cluster: Cluster,
    environments: RunEnvironments,
    name: str,
    job: LiveJob,
    notes: list[str],
    extras: RunExtras,
) -> PendingRun | None:
    label = f"{name}: {job.name}"
    if job.phase not in ("Succeeded", "Failed"):
        notes.append(f"{label}: {job.phase}, not collected (only finished jobs are)")
        return None
    ran = _ran(resolved, name, job, label, notes)
    if ran is None:
        return None
    experiment, overrides = ran
    spec = framework(experiment.job.framework)
    operator = operator_of(resolved.stack, spec)
    pods = role_pods(cluster, job, spec.reporting_role, operator)
    if not pods:
        notes.append(
            f"{label}: its {spec.reporting_role} pod is gone, and its log with it; not collected"
        )
        return None
    pod = pods[0]
    pod_name, container = str(pod["metadata"]["name"]), training_container(pod)
    if job.phase == "Failed" and not _started(pod, container):
        # Its preflight (or anything before the training container) failed: the API server
        # refuses the log of a container that never started (400, "waiting to start").
        log, truncated = b"", False
        found = preflight_reason(role_pods(cluster, job, None, operator))
        why = f": {found[0]}: {found[1]}" if found else ""
        notes.append(f"{label}: Failed before its {container} container started{why}")
    else:
        try:
            log, truncated = _keep_end(cluster.log_lines(job.namespace, pod_name, container))
        except JobNotFoundError as gone:  # deleted between the listing and the read
            notes.append(f"{label}: {str(gone).split(' (', 1)[0]}; not collected")
            return None
    read = _datasets_read(cluster, job.namespace, pod, log, f"{label}: {pod_name}", notes)
    duration = job_duration(job.status)
    where = f"log of {pod_name} ({cluster.where()})"
    try:
        metrics = measurements(log, experiment, where, [duration] if duration else [])
    except LogError:
        if job.phase != "Failed":
            raise
        metrics = {}  # a failed run is recorded as failed, whatever its log says
        notes.append(f"{label}: Failed, recorded without metrics (its log reports none)")
    digest = job.digest
    if digest is None:
        notes.append(f"{label}: no base-values digest annotation; the stack's current one used")
    elif not re.fullmatch(SHA256_DIGEST_PATTERN, digest):
        # Annotations are anyone's to edit: not a digest is as good as none, and said so.
        notes.append(
            f"{label}: a base-values digest annotation that is no digest "
            f"({printable(digest, 40)}); the stack's current one used"
        )
        digest = None
    elif digest != experiment.base_digest:
        notes.append(f"{label}: ran with other base values than the stack declares now")
    info = JobInfo.model_validate(
        {
            "kind": spec.kind,
            "name": job.name,
            "namespace": job.namespace,
            "phase": job.phase,
            "startTime": job.start_time,
            "completionTime": job.completion_time,
        }
    )
    all_pods = role_pods(cluster, job, None, operator)
    environment = environments.of_pods(all_pods)
    gpus = shape_of(experiment).gpus
    more = extras.of(job, spec, experiment, metrics, gpus, environment, all_pods, notes)
    return pending_run(
        resolved.stack.name,
        experiment,
        log,
        truncated,
        metrics,
        digest=digest or experiment.base_digest,
        job=info,
        pod=pod_name,
        container=container,
        wanted_run=job.run,
        environment=environment,
        extras=more,
        overrides=overrides,
        datasets=read,
    )


def _first(resolved: StackRuns, name: str) -> Experiment:
    """The experiment's first run: the stack's, or (not selected) as ``run`` makes it."""
    try:
        return resolved.runs_of(name)[0]
    except UnknownExperimentError:
        return resolved.run_with(name, {})


def _ran(
    resolved: StackRuns, name: str, job: LiveJob, label: str, notes: list[str]
) -> tuple[Experiment, dict[str, Any]] | None:
    """The experiment ``job`` ran (with the ``--set`` values it records) and those values;
    ``None`` (and a note) when they cannot be read or no longer apply."""
    overrides = {} if job.overrides is None else read_recorded(job.overrides)
    if overrides is None:
        notes.append(
            f"{label}: its {OVERRIDES_ANNOTATION} is not what trainstack writes; not collected"
        )
        return None
    try:
        return resolved.run_with(name, overrides), overrides
    except InvalidInputError as error:
        notes.append(
            f"{label}: ran with {overrides_words(overrides)}, which the experiment as declared "
            f"now refuses ({printable(str(error).splitlines()[0], 200)}); not collected"
        )
        return None


def _datasets_read(
    cluster: Cluster,
    namespace: str,
    pod: Mapping[str, Any],
    log: bytes,
    label: str,
    notes: list[str],
) -> dict[str, str] | None:
    """The manifest digest of each dataset the pod's preflight printed (docs/preflight.md):
    from its init container's log, or, where the preflight runs in the training container
    (a TrainJob's trainer), from the log already read; ``None`` (and a note) when that log
    cannot be read."""
    spec = pod.get("spec") or {}
    inits = [c.get("name") for c in spec.get("initContainers") or [] if isinstance(c, Mapping)]
    if PREFLIGHT not in inits:
        return read_lines(log.decode("utf-8", errors="replace").splitlines()[:MAX_LINES])
    name = str(pod["metadata"]["name"])
    try:
        return read_lines(
            cluster.log_lines(namespace, name, PREFLIGHT, limit_bytes=PREFLIGHT_LOG_BYTES)
        )
    except (JobNotFoundError, ClusterError) as error:
        said = printable(str(error).splitlines()[0] if str(error) else "", 200)
        notes.append(f"{label}: its {PREFLIGHT} log is not read ({said}): datasets unknown")
        return None


def _keep_end(lines: Iterable[str]) -> tuple[bytes, bool]:
    """The log's last :data:`MAX_LOG_BYTES` (whole lines), and whether earlier ones were cut."""
    kept: deque[bytes] = deque()
    size = 0
    truncated = False
    for line in lines:
        data = line.encode("utf-8")
        kept.append(data)
        size += len(data)
        while size > MAX_LOG_BYTES and kept:
            size -= len(kept.popleft())
            truncated = True
    return b"".join(kept), truncated


def _started(pod: Mapping[str, Any], container: str) -> bool:
    """Whether the pod's ``container`` may have logged: ``False`` only when its status
    says it never ran (waiting now, nothing before), as after a failed init container."""
    statuses = (pod.get("status") or {}).get("containerStatuses") or []
    for status in statuses:
        if isinstance(status, Mapping) and status.get("name") == container:
            states = (status.get("state") or {}, status.get("lastState") or {})
            return any("running" in state or "terminated" in state for state in states)
    return True  # no status: the log is asked for (a pod gone meanwhile is handled there)
