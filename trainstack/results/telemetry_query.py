"""The one range query of a run: its GPUs' DCGM series over its own window.

One request per run, every field and every GPU in it: the series' name matches any of
the fields (``__name__=~"A|B|..."``), the namespace label the job's, the pod label any
pod name the job's roles give (``<job>-<role>`` or ``<job>-<role>-<index>``, then the
random suffix of a pod a Job or JobSet makes: the framework's pod-name infixes,
:attr:`~trainstack.training_job.frameworks.Role.hostname`). dcgm-exporter labels a GPU's
series with the pod it is allocated to (its Kubernetes mode, on in its chart), so only
the run's own GPUs answer, on whichever nodes they were. Counters are read as they are
(their increase is taken here): ``rate()`` would drop the series' name, and with it which
field each series is.

The step: the stack's resolution, coarser when the window would need more than
:data:`~trainstack.results.telemetry_model.MAX_POINTS` points or the query more than
:data:`MAX_SAMPLES` samples (GPUs x fields x points) — well under Prometheus' own limit
of 11,000 points per series (``web/api/v1/api.go`` at v3.14.0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from trainstack.config.telemetry import DcgmLabels
from trainstack.results.dcgm import FIELDS
from trainstack.results.telemetry_model import MAX_POINTS
from trainstack.training_job.frameworks import FrameworkSpec

MAX_SAMPLES = 200_000
"""Samples one run's query may ask for (about 5 MB of JSON)."""
POD_SUFFIX = "(-[a-z0-9]{5})?"
"""The random suffix of a pod a Job or JobSet creates (the MPI launcher, TrainJob nodes)."""


@dataclass(frozen=True)
class Window:
    """The run's window and the query's step over it."""

    start: float
    end: float
    step: int

    @property
    def points(self) -> int:
        return int((self.end - self.start) // self.step) + 1


def pod_pattern(job: str, spec: FrameworkSpec) -> str:
    """The regular expression (RE2, anchored by PromQL) of the job's pod names."""
    infixes = sorted({role.hostname.format(name=role.name, index="[0-9]+") for role in spec.roles})
    return f"{job}({'|'.join(infixes)}){POD_SUFFIX}"


def run_query(job: str, namespace: str, spec: FrameworkSpec, labels: DcgmLabels) -> str:
    """The PromQL selector of the run's GPUs' series (job and namespace are DNS labels:
    nothing in them needs quoting)."""
    names = "|".join(field.name for field in FIELDS)
    return (
        f'{{__name__=~"{names}",{labels.namespace}="{namespace}",'
        f'{labels.pod}=~"{pod_pattern(job, spec)}"}}'
    )


def window_of(start: datetime, end: datetime, resolution: int, gpus: int) -> Window:
    """The step for a window from ``start`` to ``end`` on ``gpus`` GPUs."""
    seconds = max(0.0, (end - start).total_seconds())
    per_series = max(2, min(MAX_POINTS, MAX_SAMPLES // (max(gpus, 1) * len(FIELDS))))
    step = max(resolution, math.ceil(seconds / (per_series - 1)))
    return Window(start.timestamp(), end.timestamp(), step)


def rfc3339(seconds: float) -> str:
    """``2024-05-06T10:00:00Z`` (whole seconds, UTC)."""
    return datetime.fromtimestamp(round(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
