"""One number read from a job: a log line's value or the job's own duration."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Measurement:
    """A metric's value in one run, and the format (parser) that read it."""

    name: str
    unit: str
    higher_is_better: bool
    value: float
    parser: str
