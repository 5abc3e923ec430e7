"""``results collect``: each run's GPU telemetry from the Prometheus the stack names.

For each run recorded: one range query (:mod:`trainstack.results.telemetry_query`) over
the run's own window, from the job's creation to its completion (or failure), for its
own pods' GPUs; the answer summarised (:mod:`trainstack.results.telemetry_summary`) and
checked for the flags (:mod:`trainstack.results.flags`). Without ``trainstack:telemetry.
prometheus``, nothing is read and each run says "telemetry not collected". A Prometheus
that cannot be read, or answers what its API does not, stops the command with one error
before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

from trainstack.config.telemetry import DcgmLabels, Telemetry
from trainstack.console.safe_text import printable
from trainstack.core.errors import TelemetryError
from trainstack.live.api import ApiReader
from trainstack.live.jobs import LiveJob
from trainstack.live.options import ClusterOptions
from trainstack.live.prometheus import PrometheusReader, Series
from trainstack.live.prometheus_connect import connect_prometheus
from trainstack.metrics.extract import parse_timestamp
from trainstack.results.dcgm import FIELDS
from trainstack.results.flags import flags_of
from trainstack.results.telemetry_model import (
    MAX_NOTES,
    NOT_COLLECTED,
    NotCollected,
    RunTelemetry,
)
from trainstack.results.telemetry_query import rfc3339, run_query, window_of
from trainstack.results.telemetry_summary import on_grid, summarised
from trainstack.training_job.frameworks import FrameworkSpec

MAX_LABEL_CHARS = 253
"""A node's name (a DNS subdomain) at most; the GPU index and model are shorter."""
MAX_TELEMETRY_BYTES = 640 << 10
"""A run's telemetry as its results file writes it: the file stays under its 1 MiB limit."""
GPUS_PER_RUN_GPU = 4
"""Series of more GPUs than this many per GPU of the run: the matchers caught other pods'."""


def job_end(job: LiveJob) -> datetime | None:
    """When the job finished: its completion time, else when its Failed condition was set."""
    end = parse_timestamp(job.completion_time)
    if end is not None:
        return end
    for condition in job.status.get("conditions") or []:
        if isinstance(condition, Mapping) and condition.get("type") == "Failed":
            return parse_timestamp(condition.get("lastTransitionTime"))
    return None


class TelemetryReader:
    """The telemetry of each run ``results collect`` records (Prometheus opened on the first)."""

    def __init__(
        self, telemetry: Telemetry, api: Callable[[], ApiReader], options: ClusterOptions
    ) -> None:
        self.telemetry = telemetry
        self.api = api
        self.options = options

    @cached_property
    def prometheus(self) -> PrometheusReader:
        assert self.telemetry.prometheus is not None
        return connect_prometheus(self.telemetry.prometheus, self.api, self.options)

    @property
    def requests(self) -> int:
        """Range queries sent so far."""
        return self.prometheus.requests if "prometheus" in self.__dict__ else 0

    def why_not(self) -> str | None:
        """Why no telemetry is read (``None``: it is)."""
        if self.telemetry.prometheus is None:
            return "trainstack:telemetry.prometheus is not set"
        return None

    def of_run(
        self, job: LiveJob, spec: FrameworkSpec, gpus: int, notes: list[str]
    ) -> RunTelemetry | NotCollected:
        """The run's telemetry (``notes``: what the caller should say about it)."""
        if self.why_not() is not None:
            return NOT_COLLECTED
        start, end = parse_timestamp(job.created), job_end(job)
        if start is None or end is None or end <= start:
            notes.append(
                f"{job.name}: telemetry not collected: the job's creation or end time is unknown"
            )
            return NOT_COLLECTED
        labels = self.telemetry.labels
        window = window_of(start, end, self.telemetry.resolution_seconds, gpus)
        query = run_query(job.name, job.namespace, spec, labels)
        what = f"reading the GPU telemetry of {spec.kind} {job.namespace}/{job.name}"
        answer = self.prometheus.query_range(query, window.start, window.end, window.step, what)
        _check_labels(answer.series, labels, gpus, f"{what}: {self.prometheus.where}")
        series = on_grid(answer.series, window, labels)
        run_stats, run_series, nodes = summarised(series)
        floor = self.telemetry.sm_active_floor
        flags, said = flags_of(series, floor) if series else ([], [])
        if not series:
            said.append(
                f"no DCGM series with {labels.namespace}={job.namespace!r} and {labels.pod} "
                "matching the job's pods in its window: is the exporter scraped, in its "
                "Kubernetes mode, and are trainstack:telemetry.labels its label names? "
                "(Prometheus keeps 15 days by default); no flag checked"
            )
        said += [f"Prometheus warned: {text}" for text in answer.warnings]
        document: dict[str, Any] = {
            "source": self.prometheus.where,
            "query": query,
            "start": rfc3339(window.start),
            "end": rfc3339(window.end),
            "stepSeconds": window.step,
            "gpus": len({(item.node, item.gpu) for item in series}),
            "fields": run_stats,
            "series": run_series,
            "nodes": nodes,
            "notExported": [f.name for f in FIELDS if series and f.name not in run_stats],
            "smActiveFloor": floor,
            "flags": flags,
            "notes": said[:MAX_NOTES],
        }
        telemetry = RunTelemetry.model_validate(document)
        size = len(json.dumps(telemetry.model_dump(mode="json", by_alias=True), indent=2))
        if size > MAX_TELEMETRY_BYTES:
            raise TelemetryError(
                f"{what}: {size} bytes of telemetry for one run, more than {MAX_TELEMETRY_BYTES} "
                "(trainstack's limit: a results file stays under 1 MiB)"
            )
        return telemetry

    def close(self) -> None:
        if "prometheus" in self.__dict__:
            self.prometheus.close()


def _check_labels(series: Sequence[Series], labels: DcgmLabels, gpus: int, where: str) -> None:
    """The labels a results file keeps are of bounded length, and the series are of about
    the run's own GPUs (a pod restarted on other GPUs counts them twice)."""
    found = set()
    for item in series:
        for name in (labels.node, labels.gpu, "modelName"):
            value = item.labels.get(name, "")
            if len(value) > MAX_LABEL_CHARS:
                raise TelemetryError(
                    f"{where} answered a `{printable(name, 40)}` label of {len(value)} "
                    f"characters, more than {MAX_LABEL_CHARS}"
                )
        found.add((item.labels.get(labels.node), item.labels.get(labels.gpu)))
    if len(found) > GPUS_PER_RUN_GPU * max(gpus, 1):
        raise TelemetryError(
            f"{where} answered series of {len(found)} GPUs for a run of {gpus}: the label "
            "matchers caught other pods' GPUs; are trainstack:telemetry.labels the exporter's?"
        )
