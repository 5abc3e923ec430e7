"""Shell completion (Typer's ``autocompletion``): stacks, and a stack's experiments and
matrices, from the files alone (no secret read, nothing resolved, never an error: a file
that cannot be read completes nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from trainstack.core.errors import TrainstackError
from trainstack.core.project import Project

if TYPE_CHECKING:
    from trainstack.config.experiments import StackExperiments

EXPERIMENTS_KEY = "trainstack:experiments"


def complete_stack(incomplete: str) -> list[str]:
    """The project's stacks that start with what was typed."""
    try:
        return [name for name in Project.find().stacks() if name.startswith(incomplete)]
    except TrainstackError:
        return []


def complete_experiment(ctx: typer.Context, incomplete: str) -> list[str]:
    """The experiments (matrix points by their own name) of the stack given before, or of
    the experiments directory, that start with what was typed."""
    return [name for name, _ in _experiments(ctx) if name.startswith(incomplete)]


def complete_matrix(ctx: typer.Context, incomplete: str) -> list[str]:
    """The matrices of the stack given before that start with what was typed."""
    names = {matrix for _, matrix in _experiments(ctx) if matrix is not None}
    return sorted(name for name in names if name.startswith(incomplete))


def _experiments(ctx: typer.Context) -> list[tuple[str, str | None]]:
    """(experiment, its matrix or ``None``) the stack selects, sorted by name."""
    # Imported here: every command line imports this module, few complete.
    from pydantic import ValidationError

    from trainstack.experiments.catalog import read_catalog

    try:
        project = Project.find()
        settings = _settings(project, ctx.params.get("stack"))
        catalog = read_catalog(project.root / settings.directory, project.root)
    except (TrainstackError, ValidationError, OSError):
        return []
    found = []
    for source in catalog:
        spec = source.spec
        names: list[tuple[str, str | None]]
        if spec.matrix is None:
            names = [(spec.name, None)]
        else:
            points = spec.matrix.expanded_points()
            names = [(spec.matrix.point_name(spec.name, p), spec.name) for p in points]
        found += [(name, matrix) for name, matrix in names if settings.selects((name, spec.name))]
    return sorted(found, key=lambda item: item[0])


def _settings(project: Project, stack: object) -> StackExperiments:
    """The stack's ``trainstack:experiments`` (every experiment without a stack)."""
    from trainstack.config.experiments import StackExperiments
    from trainstack.config.pulumi_config import decode_config_value, read_stack_file

    if not isinstance(stack, str) or stack not in project.stacks():
        return StackExperiments()
    raw = read_stack_file(project, stack).config
    value = decode_config_value(raw[EXPERIMENTS_KEY]) if EXPERIMENTS_KEY in raw else {}
    return StackExperiments.model_validate(value)


__all__ = ["complete_experiment", "complete_matrix", "complete_stack"]
