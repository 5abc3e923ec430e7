"""From a run's log (and job) to the record to write: shared by ``add`` and ``collect``."""

from __future__ import annotations

import hashlib
import math
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from trainstack.console.safe_text import printable
from trainstack.core.errors import LogError, Problem, ResultsError
from trainstack.experiments.resolve import Experiment
from trainstack.facts.model import RunEnvironment
from trainstack.metrics import FORMATS, Measurement, extract
from trainstack.results.datasets import datasets_of
from trainstack.results.paths import log_name
from trainstack.results.record import FORMAT, JobInfo, MatrixPoint, MetricValue, RunRecord, Shape
from trainstack.results.store import PendingRun
from trainstack.results.within import within_run
from trainstack.training_job.frameworks import framework

MAX_LOG_BYTES = 64 * 1024 * 1024
"""Logs are kept (and read) up to this size; beyond it only the end is: results come last."""


def read_log_file(path: Path) -> tuple[bytes, bool]:
    """The end of a saved log file (at most :data:`MAX_LOG_BYTES`) and whether it was cut."""
    shown = printable(str(path))  # a file's name can hold escape sequences and newlines
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            # A device (/dev/zero) never ends and a pipe would wait: saved logs are files.
            raise ResultsError(f"cannot read log {shown}: not a regular file")
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - MAX_LOG_BYTES))
            return handle.read(MAX_LOG_BYTES), size > MAX_LOG_BYTES
    except OSError as error:
        raise ResultsError(f"cannot read log {shown}: {error.strerror}") from error


def shape_of(experiment: Experiment) -> Shape:
    """GPUs and workers of the experiment's job, as the framework registry counts them."""
    spec = framework(experiment.job.framework)
    pods = spec.pods(experiment.job)
    workers = [role for role in pods if role.role == "worker"]
    return Shape.model_validate(
        {
            "gpus": sum(role.replicas * role.gpus for role in pods),
            "workers": sum(role.replicas for role in workers),
            "gpusPerWorker": workers[0].gpus if workers else 0,
        }
    )


def matrix_of(experiment: Experiment) -> MatrixPoint | None:
    """The experiment's matrix point, if it is one."""
    if experiment.point is None:
        return None
    return MatrixPoint(name=experiment.file_experiment, point=dict(experiment.point))


def measurements(
    log: bytes, experiment: Experiment, log_display: str, extra: Sequence[Measurement] = ()
) -> dict[str, MetricValue]:
    """Every metric of a run; an error when the log lacks a declared metric or has none."""
    found = extract(log.decode("utf-8", errors="replace"), experiment.metrics, extra)
    problems = [
        Problem(
            f"metrics[{index}] ({spec.name}) of {experiment.source}",
            "no line matching its pattern" if spec.pattern else "no value in any recognised format",
            f"a log that reports {spec.name}, or a `pattern` matching the line that does",
        )
        for index, spec in found.missing
    ]
    if not found.measurements and not problems:
        formats = "; ".join(f"{f.name}: `{f.example}`" for f in FORMATS)
        problems.append(
            Problem(
                "(metrics)",
                "no line in a recognised format",
                f"one of {formats}; or declare `metrics:` with a `pattern` in {experiment.source}",
            )
        )
    problems += [
        Problem(
            f"line {m.line} ({m.name})" if m.line else f"({m.name}, {m.parser})",
            printable(repr(m.value)),
            "a finite number greater than 0 (statistics are on the log scale)",
        )
        for m in found.measurements
        if not (math.isfinite(m.value) and m.value > 0)
    ]
    if problems:
        raise LogError(log_display, problems)
    warmups = {spec.name: spec.warmup for spec in experiment.metrics}
    return {
        m.name: MetricValue.model_validate(
            {
                "value": m.value,
                "unit": m.unit,
                "higherIsBetter": m.higher_is_better,
                "parser": m.parser,
                "scope": m.scope,
                "line": m.line,
                "within": within_run(m.intervals, warmups.get(m.name)) if m.intervals else None,
            }
        )
        for m in found.measurements
    }


def pending_run(
    stack: str,
    experiment: Experiment,
    log: bytes,
    truncated: bool,
    metrics: dict[str, MetricValue],
    *,
    digest: str,
    job: JobInfo | None = None,
    pod: str | None = None,
    container: str | None = None,
    wanted_run: int | None = None,
    environment: RunEnvironment | None = None,
    extras: Mapping[str, object] | None = None,
    overrides: dict[str, Any] | None = None,
    datasets: Mapping[str, str] | None = None,
) -> PendingRun:
    """The record of one run (run number and log file name are set when written); without
    an ``environment`` (a saved log), where it ran is ``unknown``; ``extras``: more keys of
    the record (``telemetry``, ``goodput``: ``results collect``); ``datasets``: the manifest
    digests its preflight printed (``None``, a saved log: every dataset ``unknown``)."""
    record = RunRecord.model_validate(
        {
            "format": FORMAT,
            "stack": stack,
            "experiment": experiment.point_name,
            "run": 1,  # the store numbers the run, and names its log, when it writes it
            "source": "log file" if job is None else "cluster",
            "baseValuesDigest": digest,
            "shape": shape_of(experiment),
            "matrix": matrix_of(experiment),
            "job": job,
            "log": {
                "file": log_name(1),
                "sha256": hashlib.sha256(log).hexdigest(),
                "bytes": len(log),
                "truncated": truncated,
                "pod": pod,
                "container": container,
            },
            "metrics": metrics,
            "overrides": overrides or {},
            "environment": environment or "unknown",
            "datasets": datasets_of(experiment, datasets),
            **(extras or {}),
        }
    )
    return PendingRun(record, log, wanted_run)
