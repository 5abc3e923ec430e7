"""An experiment on a stack, as the plan makes it: resolved with everything the stack gives
it and checked by every plan-time check, with the ``--set`` values of the command.

Nothing here is a second implementation of the plan: the stack is validated by the same
loader, the experiment is resolved and checked by :func:`trainstack.deployment.prepare`
(what ``trainstack plan`` and ``pulumi up`` run first), the objects are rendered by
:func:`trainstack.chart.render_training_job` (what the plan renders each release with) and
checked against the API schemas by :func:`trainstack.plan.conformance.check_conformance`.
The only difference: the stack is made to select the experiment (``trainstack run`` runs
what the stack does not deploy too; one it excludes is refused), and the ``--set``
values are merged over the stack's own overrides of it, after they were validated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainstack.chart.render import render_training_job
from trainstack.checks import Finding
from trainstack.checks.acknowledge import Acknowledged
from trainstack.config.loader import LoadedStack, load_stack_config
from trainstack.config.pulumi_config import read_stack_file
from trainstack.core.errors import DataStackError, PlanCheckError
from trainstack.core.file_names import check_stack_name
from trainstack.core.mentions import Files
from trainstack.core.project import Project
from trainstack.deployment import CHART_PATH, experiment_placeholders, prepare
from trainstack.experiments.overrides import (
    Override,
    check_overrides,
    overrides_mapping,
    with_overrides,
)
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.targets import find_targets
from trainstack.plan.conformance import check_conformance
from trainstack.plan.model import RenderedObject


@dataclass(frozen=True)
class Prepared:
    """An experiment (its matrix points) on one stack, resolved and checked."""

    stack: LoadedStack
    experiments: tuple[Experiment, ...]
    """Every release the stack's plan would have of it (its runs), by name."""
    warnings: tuple[Finding, ...]
    """The plan's warnings about it (not acknowledged)."""
    acknowledged: tuple[Acknowledged, ...]
    overrides: dict[str, Any]
    """The ``--set`` values, as one mapping of job values (``{}`` without any)."""
    selected: bool
    """Whether the stack selects it (``pulumi up`` deploys it)."""
    files: Files
    """The files read for it, by the name messages give them (for its warnings' lines)."""

    @property
    def first_runs(self) -> tuple[Experiment, ...]:
        """Each matrix point's (or the experiment's) first release: what a run starts from."""
        seen: dict[str, Experiment] = {}
        for experiment in self.experiments:
            seen.setdefault(experiment.point_name, experiment)
        return tuple(seen.values())

    def placeholders(self) -> list[tuple[str, str]]:
        """(``<file>: job.<key>``, placeholder) of its values still to set."""
        return experiment_placeholders(self.experiments)


def load_cluster_stack(project: Project, name: str) -> LoadedStack:
    """``name``'s stack file, validated; a data stack is an error (it runs no job)."""
    check_stack_name(name)
    stack_file = read_stack_file(project, name)
    stack = load_stack_config(
        name, stack_file.config, stack_file.secret_keys, stack_file.source, stack_file.path
    )
    if not isinstance(stack, LoadedStack):
        raise DataStackError(stack.name, stack.source)
    return stack


def prepare_experiment(
    project: Project, stack: LoadedStack, wanted: str, overrides: tuple[Override, ...]
) -> Prepared:
    """``wanted`` (an experiment, matrix, matrix point or file) on ``stack``, with
    ``overrides``; raises what the plan raises (with the ``--set`` values named)."""
    targets = find_targets(project.root, stack.config, stack.name, stack.source, wanted)
    check_overrides(targets, stack.config, overrides)
    names = [candidate.name for candidate in targets]
    mapping = overrides_mapping(overrides)
    selected = all(stack.config.experiments.selects((c.name, c.source.spec.name)) for c in targets)
    config = with_overrides(stack.config, names, mapping)
    try:
        deployment = prepare(
            project.root, dataclasses.replace(stack, config=config), project.stack_config_dir
        )
    except PlanCheckError as error:
        if not overrides:
            raise
        given = " ".join(override.shown() for override in overrides)
        # The checks name the file's line; the value may be the command line's.
        raise PlanCheckError(
            error.failures, [f"{line} (with {given})" for line in error.located]
        ) from None
    experiments = tuple(e for e in deployment.experiments if e.point_name in names)
    releases = {experiment.release_name for experiment in experiments}
    return Prepared(
        stack=stack,
        experiments=experiments,
        warnings=tuple(w for w in deployment.warnings if w.experiment in releases),
        acknowledged=tuple(a for a in deployment.acknowledged if a.warning.experiment in releases),
        overrides=mapping,
        selected=selected,
        files=deployment.files,
    )


def render_objects(project: Project, experiment: Experiment) -> list[dict[str, Any]]:
    """The objects of ``experiment``'s release, as the plan renders them."""
    return render_training_job(
        experiment.values,
        release=experiment.release_name,
        namespace=experiment.namespace,
        chart_dir=(project.root / CHART_PATH).resolve(),
    )


def check_objects(
    stack: LoadedStack, objects: Sequence[dict[str, Any]], crd_dir: Path | None
) -> None:
    """Every object against its API's schema (the CRDs in ``crd_dir`` when given), as the
    plan checks its objects: all at once, each schema loaded once."""
    rendered = [RenderedObject(release="", object=document) for document in objects]
    check_conformance(stack.config, [], rendered, crd_dir)
