"""Which experiments a stack runs, and what it changes in them on this stack only."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.names import RelativeDirectory

MAX_RUNS = 100


class Runs(StrictModel):
    """Which runs of an experiment the stack deploys: one release (and job) per run."""

    first: int = Field(
        default=1,
        ge=1,
        description="Number of the first run deployed; raise it to re-run (earlier runs' "
        "releases are removed, their results files stay).",
    )
    count: int = Field(
        default=1,
        ge=1,
        le=MAX_RUNS,
        description="How many runs from `first` on, e.g. 5 for statistics (Kueue queues them "
        "when queueing is on).",
    )

    def numbers(self) -> range:
        """The run numbers deployed."""
        return range(self.first, self.first + self.count)


class StackExperiments(StrictModel):
    """The experiments of a stack: a selection of `experiments/` and per-stack overrides."""

    directory: RelativeDirectory = Field(
        default="experiments",
        description="Directory of experiment files, relative to the project root.",
    )
    select: list[str] | None = Field(
        default=None,
        description="Experiments this stack runs, by name (a matrix's name selects all its "
        "points); unset: every experiment in the directory.",
    )
    overrides: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Per experiment name (or matrix point name): job values merged over the "
        "experiment's `job` on this stack only (mappings merge, lists replace).",
    )
    runs: dict[str, Runs] = Field(
        default_factory=dict,
        description="Per experiment name (or matrix name): the runs deployed, e.g. "
        "`{first: 1, count: 3}`; unset: run 1 only. Run 1 is released under the experiment's "
        "name, run N under `<name>-r<N>`.",
    )
    node_pools: dict[str, str] = Field(
        default_factory=dict,
        description="Per experiment name (or matrix name): the GPU node pool its GPU pods run "
        "on here, instead of the file's `nodePool` (e.g. when this stack names its pools "
        "differently).",
        examples=[{"imagenet-tensorflow": "gpu-v100"}],
    )
