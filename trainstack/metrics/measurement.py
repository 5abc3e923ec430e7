"""One number read from a job: a log line's value or the job's own duration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Scope = Literal["job", "rank", "gpu"]
"""What a value covers: the whole job, one rank (a worker process) or one GPU."""


@dataclass(frozen=True)
class Intervals:
    """The figures a log printed during the run (per N steps, per iteration, per epoch)."""

    values: tuple[float, ...]
    scope: Scope
    source: str
    """What they are, e.g. tf_cnn_benchmarks' step lines."""
    tool_warmup: str
    """What the tool itself leaves out before printing them ("" when nothing)."""


@dataclass(frozen=True)
class Measurement:
    """A metric's value in one run, and the format (parser) that read it."""

    name: str
    unit: str
    higher_is_better: bool
    value: float
    parser: str
    line: int | None = None
    """The log line (1-based) the value was read from; ``None`` when not from a line."""
    scope: Scope = "job"
    intervals: Intervals | None = None
