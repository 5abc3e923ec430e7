"""What an experiment says it reports: ``metrics:`` in the experiment file."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.metrics.measurement import Scope
from trainstack.metrics.pattern import pattern_problem

MetricName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_.-]*$", max_length=63)]


class MetricSpec(StrictModel):
    """One number the job's log reports (or a recognised one, with its unit and direction)."""

    name: MetricName = Field(description="Metric name, e.g. `images_per_sec`.")
    unit: str = Field(default="", max_length=32, description="Unit shown next to values.")
    higher_is_better: bool = Field(
        default=True,
        description="Whether a higher value is better (throughput) or worse (time, loss).",
    )
    pattern: str | None = Field(
        default=None,
        description="Python regular expression with one capturing group, the number, searched "
        "line by line (the last match wins); unset: a format trainstack recognises reports it.",
        examples=[r"total images/sec: ([0-9.]+)"],
    )

    scope: Scope | None = Field(
        default=None,
        description="What the value covers: `job` (the whole job), `rank` (one worker "
        "process) or `gpu`; unset: what the recognised format reports (`job` for a pattern). "
        "Values of different scopes never compare.",
    )
    warmup: int | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Within-run figures (per-step images/sec, per-epoch times) to leave out "
        "at the start of each run; unset: the tool's own warm-up only (tf_cnn_benchmarks and "
        "Horovod print their figures after it; Keras has none).",
    )

    @model_validator(mode="after")
    def _safe_pattern(self) -> MetricSpec:
        if self.pattern is not None:
            problem = pattern_problem(self.pattern)
            if problem:
                raise constraint("pattern", self.pattern, problem)
        return self
