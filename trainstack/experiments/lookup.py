"""A stack's experiments by name, for the commands that work after deployment."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trainstack.core.errors import DataStackError, UnknownExperimentError
from trainstack.core.project import Project
from trainstack.experiments.overrides import recorded_json, with_overrides

if TYPE_CHECKING:
    # The stack and job models (any module of trainstack.config loads them) load with
    # the first stack read, not with this module: ``results compare`` imports it (the
    # health gate) and may read no stack at all.
    from trainstack.config.loader import LoadedStack
    from trainstack.experiments.resolve import Experiment


@dataclass(frozen=True)
class StackRuns:
    """A validated stack and the runs of its experiments (offline: from the files)."""

    project: Project
    stack: LoadedStack
    runs: tuple[Experiment, ...]
    _with: dict[str, Experiment] = field(default_factory=dict, compare=False, repr=False)
    """:meth:`run_with`'s answers, by experiment and recorded overrides."""

    def names(self) -> list[str]:
        """The experiments' names (matrix points by their own name), sorted."""
        return sorted({run.point_name for run in self.runs})

    def runs_of(self, experiment: str) -> list[Experiment]:
        """The deployed runs of ``experiment``; an error lists the stack's experiments."""
        found = [run for run in self.runs if run.point_name == experiment]
        if not found:
            raise UnknownExperimentError(
                experiment, self.stack.name, self.stack.source, self.names()
            )
        return found

    def run_with(self, experiment: str, overrides: Mapping[str, Any]) -> Experiment:
        """The first run of ``experiment`` as ``trainstack run`` makes it with ``overrides``
        (its ``--set`` values, as a job records them), selected by the stack or not; raises
        what resolving it raises (values the experiment as declared now refuses)."""
        if not overrides:
            found = [run for run in self.runs if run.point_name == experiment]
            if found:
                return found[0]
        key = f"{experiment} {recorded_json(overrides)}"
        if key not in self._with:
            from trainstack.experiments.select import resolve_experiments

            config = with_overrides(self.stack.config, [experiment], overrides)
            stack = self.stack
            runs = resolve_experiments(self.project.root, config, stack.source, stack.files)
            found = [run for run in runs if run.point_name == experiment]
            if not found:
                raise UnknownExperimentError(
                    experiment, self.stack.name, self.stack.source, self.names()
                )
            self._with[key] = found[0]
        return self._with[key]

    def matrix_points(self, matrix: str) -> list[Experiment]:
        """The first run of each point of ``matrix``; an error lists the stack's matrices."""
        points = {
            run.point_name: run
            for run in self.runs
            if run.point is not None and run.file_experiment == matrix
        }
        if not points:
            matrices = sorted({run.file_experiment for run in self.runs if run.point is not None})
            raise UnknownExperimentError(
                matrix, self.stack.name, self.stack.source, matrices, what="matrix"
            )
        return [points[name] for name in sorted(points)]


def load_stack_experiments(
    project: Project, stack_name: str, only: Collection[str] | None = None
) -> StackRuns:
    """Read and validate ``stack_name``'s file and resolve its experiments (no checks run);
    ``only``: the runs of these experiments alone (as ``resolve_experiments`` takes it)."""
    from trainstack.config.loader import LoadedStack, load_stack_config
    from trainstack.config.pulumi_config import read_stack_file
    from trainstack.experiments.select import resolve_experiments

    stack_file = read_stack_file(project, stack_name)
    stack = load_stack_config(
        stack_name, stack_file.config, stack_file.secret_keys, stack_file.source, stack_file.path
    )
    if not isinstance(stack, LoadedStack):
        raise DataStackError(stack.name, stack.source)
    runs = resolve_experiments(project.root, stack.config, stack.source, stack.files, only)
    return StackRuns(project, stack, tuple(runs))
