"""Which experiments a stack runs, and what it changes in them on this stack only."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

from trainstack.base_model import StrictModel, constraint


def _inside_project(path: str) -> str:
    if ".." in path.split("/"):
        raise constraint("", path, "a directory inside the project (no `..`)")
    return path


RelativeDirectory = Annotated[
    str,
    StringConstraints(pattern=r"^[^/\s][^\s]*$", max_length=1024),
    AfterValidator(_inside_project),
]


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
