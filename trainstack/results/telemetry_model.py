"""What a results file keeps of a run's GPU telemetry (``telemetry``) and its flags.

Per run and per node, each DCGM field (:mod:`trainstack.results.dcgm`) is summarised over
the run's window (mean, 5th and 95th percentile of its samples at the query's step; for a
counter its increase) and kept as a series at a bounded resolution: at most
:data:`MAX_POINTS` points for the run (the mean over its GPUs at each step) and, for the
nodes together, at most :data:`MAX_NODE_VALUES` values (the mean over each node's GPUs,
fewer points per series on a run of many nodes). Values keep 4 significant digits.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel

MAX_POINTS = 361
"""Points of each series kept for the run (one hour at 10 s, both ends included)."""
MAX_NODE_VALUES = 24_000
"""Values of all the nodes' series together (4 nodes x 15 fields x 361 points fit)."""
MAX_NOTES = 20
ACTIVE_LEVEL = 0.1
"""A point counts as training when the run's GPUs' mean SM activity is at least this."""

Finite = Annotated[float, Field(allow_inf_nan=False)]
NonNegative = Annotated[float, Field(ge=0, allow_inf_nan=False)]
Seconds = NonNegative
FlagKind = Literal["throttled", "xid-error", "ecc-error", "low-sm-active"]
NotCollected = Literal["not collected"]
NOT_COLLECTED: NotCollected = "not collected"


class FieldStats(StrictModel):
    """One DCGM field over the run's window."""

    mean: Finite | None = Field(description="Mean of its samples (none: no sample).")
    p5: Finite | None = Field(description="5th percentile of its samples.")
    p95: Finite | None = Field(description="95th percentile of its samples.")
    samples: int = Field(ge=0, description="Samples summarised (GPUs x steps with a value).")
    missing: int = Field(
        default=0, ge=0, description="Samples left out: NaN or Inf (the exporter's gaps)."
    )
    increase: Finite | None = Field(
        default=None,
        description="A counter's increase over the window, summed over the GPUs (resets "
        "counted from 0); none for a level.",
    )


class NodeTelemetry(StrictModel):
    """The run's GPUs on one node."""

    node: str = Field(description="The node (the exporter's node label).")
    gpus: list[str] = Field(description="The GPUs' indexes on it, sorted.")
    model: str | None = Field(description="The GPUs' `modelName` label, if the series carry it.")
    fields: dict[str, FieldStats] = Field(description="Each field found, by DCGM name.")
    series: dict[str, list[Finite | None]] = Field(
        description="Each field's mean over the node's GPUs at each point (none: no value)."
    )


class Flag(StrictModel):
    """Why the run's figures are not a fair measure of the setup."""

    kind: FlagKind = Field(description="`throttled`, `xid-error`, `ecc-error` or `low-sm-active`.")
    reason: str = Field(description="What was seen, where (node and GPU) and how much.")


class RunTelemetry(StrictModel):
    """What the run's GPUs did, read from Prometheus by `results collect`."""

    source: str = Field(description="The Prometheus read (credentials never in it).")
    query: str = Field(description="The PromQL range query sent, as sent.")
    start: str = Field(description="Start of the window (the job's creation), RFC 3339.")
    end: str = Field(description="End of the window (its completion or failure), RFC 3339.")
    step_seconds: int = Field(ge=1, description="Seconds between the points.")
    gpus: int = Field(ge=0, description="GPUs with series (each node's, with its pods).")
    fields: dict[str, FieldStats] = Field(description="Each field over all the run's GPUs.")
    series: dict[str, list[Finite | None]] = Field(
        description=f"Each field's mean over the GPUs at each point (at most {MAX_POINTS})."
    )
    nodes: list[NodeTelemetry] = Field(description="Per node, sorted by name.")
    not_exported: list[str] = Field(
        description="Fields with no series at all: not in the exporter's counters CSV, or "
        "profiling fields the exporter could not collect."
    )
    sm_active_floor: float = Field(
        ge=0, le=1, description="The SM-active floor the flags were checked against."
    )
    flags: list[Flag] = Field(description="Why the run is flagged; empty: not flagged.")
    notes: list[str] = Field(
        max_length=MAX_NOTES, description="What could not be read or checked, and why."
    )


class Goodput(StrictModel):
    """Where the run's wall time went, its steady throughput and its MFU."""

    wall_seconds: Seconds | None = Field(description="Creation to completion (or failure).")
    queued_seconds: Seconds | None = Field(description="Creation to the job's startTime.")
    to_first_step_seconds: Seconds | None = Field(
        description=f"Creation to the first point with mean SM active >= {ACTIVE_LEVEL}."
    )
    training_seconds: Seconds | None = Field(
        description=f"Points with mean SM active >= {ACTIVE_LEVEL}, times the step."
    )
    goodput: Annotated[float, Field(ge=0, le=1)] | None = Field(
        description="Training seconds / wall seconds."
    )
    restarts: Annotated[int, Field(ge=0)] | None = Field(
        description="Container restarts of the job's pods listed."
    )
    throughput: Finite | None = Field(description="Steady-state value of `metric`.")
    metric: str | None = Field(description="The throughput's metric.")
    mfu: NonNegative | None = Field(description="Model FLOPs utilisation (0 to 1).")
    basis: list[str] = Field(description="How each figure was found, or why it is missing.")
