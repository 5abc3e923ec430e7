"""Which experiments a stack runs, and what it changes in them on this stack only."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import MAX_RUNS
from trainstack.core.names import RelativeDirectory


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


PATTERN_CHARACTERS = frozenset("*?[")

SELECTOR_PATTERN = re.compile(r"[a-z0-9*?!\[\]-]{1,63}")


def _selector(value: str) -> str:
    if SELECTOR_PATTERN.fullmatch(value) is None:
        raise constraint(
            "",
            value,
            "an experiment name (lowercase letters, digits, '-') or a glob pattern over names "
            "(`*`, `?`, `[...]`), at most 63 characters",
        )
    return value


Selector = Annotated[str, AfterValidator(_selector)]
"""An experiment, matrix or matrix point name, or a glob pattern over them (``*``, ``?``,
``[...]``, as Python's :func:`fnmatch.fnmatchcase`)."""


def is_pattern(selector: str) -> bool:
    """Whether ``selector`` is a glob pattern rather than a name."""
    return not PATTERN_CHARACTERS.isdisjoint(selector)


def matches(selector: str, names: Iterable[str]) -> bool:
    """Whether ``selector`` (a name or a pattern) matches any of ``names``."""
    return any(fnmatchcase(name, selector) for name in names)


class StackExperiments(StrictModel):
    """The experiments of a stack: a selection of `experiments/` and per-stack overrides."""

    directory: RelativeDirectory = Field(
        default="experiments",
        description="Directory of experiment files, relative to the project root.",
    )
    select: list[Selector] | None = Field(
        default=None,
        description="Experiments this stack runs: names or glob patterns (`*`, `?`, `[...]`) "
        "over experiment, matrix and matrix point names (a matrix's name selects all its "
        "points; `*` selects every experiment, those added later included); unset: every "
        "experiment in the directory. A name must match an experiment; a pattern may match "
        "none.",
        examples=[["*"], ["imagenet-*", "keras-lstm"]],
    )
    exclude: list[Selector] = Field(
        default_factory=list,
        description="Experiments left out of what `select` picks: names or glob patterns, as "
        "in `select`, e.g. `['*-onprem']` for the experiments of another cluster.",
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

    def selects(self, names: Iterable[str]) -> bool:
        """Whether an experiment known by ``names`` (its own, its matrix's) is run here."""
        names = tuple(names)
        chosen = self.select is None or any(matches(item, names) for item in self.select)
        return chosen and not any(matches(item, names) for item in self.exclude)
