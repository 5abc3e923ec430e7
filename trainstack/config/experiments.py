"""Which experiments a stack runs, and what it changes in them on this stack only."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StringConstraints

from trainstack.base_model import StrictModel

RelativeDirectory = Annotated[str, StringConstraints(pattern=r"^[^/\s][^\s]*$")]


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
    node_pools: dict[str, str] = Field(
        default_factory=dict,
        description="Per experiment name (or matrix name): the GPU node pool its GPU pods run "
        "on here, instead of the file's `nodePool` (e.g. when this stack names its pools "
        "differently).",
        examples=[{"imagenet-tensorflow": "gpu-v100"}],
    )
