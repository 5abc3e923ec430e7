"""One run's results file: ``results/STACK/EXPERIMENT/run-NNN.json`` (format 1).

The file records what ran (the experiment's base-values digest, GPUs, the job and its
timing), the log it was read from (kept beside it as ``run-NNN.log``, with its sha256),
every metric found, so that a reviewer can check each number against the raw log,
where it ran (the facts of its nodes and operators, ``environment``) and, for a collected
run, what its GPUs did (``telemetry``, with its flags) and where its wall time went
(``goodput``: :mod:`trainstack.results.telemetry_model`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from trainstack.core.base_model import StrictModel
from trainstack.core.names import Sha256Digest
from trainstack.facts.model import RunEnvironment
from trainstack.metrics.measurement import Scope
from trainstack.results.telemetry_model import NOT_COLLECTED, Flag, Goodput, RunTelemetry

MAX_INTERVALS = 1000
"""Within-run figures kept per metric (the last ones): results files stay small."""
DRIFT_THRESHOLD = 0.05
"""A run whose within-run figures move more than this (last third against first) drifted."""

FORMAT = "trainstack-results/1"
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
ClaimName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$")]
DatasetManifest = Sha256Digest | Literal["none", "unknown"]
"""What a run read of one dataset: the manifest digest its preflight printed, ``none``
(the preflight found no manifest it could trust) or ``unknown`` (nothing was read)."""
Name = Annotated[str, StringConstraints(max_length=253)]
"""A name a record holds (stack, experiment, job, pod, metric, unit...): at most 253
characters, the longest Kubernetes name, so that a hand-edited record cannot copy a
400,000-character name into every line of a report."""
LogFileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")]
"""A file beside the record (``run-001.log``): no directory (``../``, ``/``), no scheme
(``javascript:``), so that the report's link to it is always that file."""


PositiveFinite = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class WithinRun(StrictModel):
    """The figures the log printed during the run, the warm-up left out, and their drift."""

    values: list[PositiveFinite] = Field(
        max_length=MAX_INTERVALS,
        description="Every figure after the warm-up, in the log's order (the last "
        f"{MAX_INTERVALS} when there are more).",
    )
    scope: Scope = Field(description="What each figure covers: `job`, `rank` or `gpu`.")
    source: str = Field(description="What the figures are, e.g. tf_cnn_benchmarks step lines.")
    warmup: int = Field(ge=0, description="Figures left out at the start (the warm-up).")
    warmup_rule: str = Field(description="The warm-up rule applied, as declared or the tool's.")
    drift: float | None = Field(
        description="(mean of the last third - mean of the first third) / mean of all the "
        "figures kept; none with fewer than 4."
    )
    drifted: bool = Field(
        description=f"Whether the drift is beyond ±{DRIFT_THRESHOLD:.0%}: the run was not "
        "stable (flagged, never dropped)."
    )


class MetricValue(StrictModel):
    """A metric's value in this run."""

    value: PositiveFinite = Field(description="The value (the last one the log printed).")
    unit: Name = Field(description="Its unit, e.g. images/sec or s.")
    higher_is_better: bool = Field(description="Whether a higher value is better.")
    parser: Name = Field(description="The format (or `declared` pattern) that read it.")
    scope: Scope = Field(
        default="job",
        description="What the value covers: `job`, `rank` (one worker process) or `gpu`; "
        "values of different scopes never compare.",
    )
    line: int | None = Field(
        default=None, ge=1, description="The log line it was read from (1-based), if any."
    )
    within: WithinRun | None = Field(
        default=None, description="The log's within-run figures for it, when it prints them."
    )


class Shape(StrictModel):
    """How many GPUs the run trained on."""

    gpus: int = Field(ge=0, description="GPUs of all the job's pods.")
    workers: int = Field(ge=0, description="Worker pods.")
    gpus_per_worker: int = Field(ge=0, description="GPUs of each worker pod.")


class MatrixPoint(StrictModel):
    """The matrix and point the experiment is, when it is one."""

    name: Name = Field(description="The matrix (experiment file) name.")
    point: dict[Name, int | Name | bool] = Field(description="The point's value per axis.")


class JobInfo(StrictModel):
    """The job the results were read from (``results collect``)."""

    kind: Name = Field(description="MPIJob, TFJob, PyTorchJob.")
    name: Name = Field(description="The job's name (the run's release).")
    namespace: Name = Field(description="Its namespace.")
    phase: Name = Field(description="Its phase when collected.")
    start_time: Name | None = Field(default=None, description="status.startTime.")
    completion_time: Name | None = Field(default=None, description="status.completionTime.")


class LogInfo(StrictModel):
    """The raw log kept beside the record."""

    file: LogFileName = Field(description="File name of the log, beside this file.")
    sha256: Sha256 = Field(description="sha256 of the log file's bytes.")
    bytes: int = Field(ge=0, description="Its size.")
    truncated: bool = Field(description="Whether only the log's end was kept (size cap).")
    pod: Name | None = Field(default=None, description="The pod it was read from.")
    container: Name | None = Field(default=None, description="The container it was read from.")


class RunRecord(StrictModel):
    """Everything recorded about one run of one experiment on one stack."""

    format: Literal["trainstack-results/1"] = Field(description="File format and version.")
    stack: Name = Field(description="The stack (cluster) it ran on.")
    experiment: Name = Field(description="The experiment (a matrix point's own name).")
    run: int = Field(ge=1, description="The run number (as in the file name).")
    source: Literal["cluster", "log file"] = Field(
        description="`cluster`: read by `results collect`; `log file`: by `results add`."
    )
    base_values_digest: Sha256Digest = Field(
        description="Digest of the experiment's base values: runs compare only when equal."
    )
    shape: Shape = Field(description="GPUs and workers.")
    matrix: MatrixPoint | None = Field(default=None, description="Its matrix point, if any.")
    job: JobInfo | None = Field(default=None, description="The job (collected runs only).")
    log: LogInfo = Field(description="The raw log.")
    metrics: dict[Name, MetricValue] = Field(description="Every metric found, by name.")
    overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="The `--set` values `trainstack run` ran it with, as job values (`{}`: "
        "none, and for runs `pulumi up` deployed or read from saved logs); runs of other "
        "overrides are never compared together.",
    )
    environment: RunEnvironment | Literal["unknown"] = Field(
        default="unknown",
        description="Where it ran: the facts of its pods' nodes and the operators' versions, "
        "with their digest (`results collect`); `unknown` for a run recorded from a saved log "
        "(`results add`) or by an earlier trainstack.",
    )
    telemetry: RunTelemetry | Literal["not collected"] = Field(
        default=NOT_COLLECTED,
        description="What its GPUs did (`results collect` from the stack's Prometheus, "
        "trainstack:telemetry); `not collected` without one, and for saved logs.",
    )
    goodput: Goodput | None = Field(
        default=None,
        description="Where its wall time went, its steady throughput and MFU (collected "
        "runs only).",
    )
    datasets: dict[ClaimName, DatasetManifest] = Field(
        default_factory=dict,
        description="Which data it read, per dataset it mounted (its claim name): the "
        "manifest digest its preflight printed (`sha256:...`, written by the populate "
        "Job's verify), `none` (no manifest, a malformed one, or a sub-path mount) or "
        "`unknown` (not read: a saved log, `results add`, or no preflight line); `{}`: no "
        "dataset, or recorded by an earlier trainstack. Two sides that read different "
        "manifests are not comparable.",
    )

    @property
    def failed(self) -> bool:
        """Its job failed (``results collect`` records failed runs for the scoring rules)."""
        return self.job is not None and self.job.phase == "Failed"

    @property
    def flags(self) -> list[Flag]:
        """Why its figures are not a fair measure (its telemetry's flags)."""
        return [] if isinstance(self.telemetry, str) else self.telemetry.flags
