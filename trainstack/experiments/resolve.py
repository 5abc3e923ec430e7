"""From experiment files to the jobs a stack deploys.

For each experiment of the stack: expand its matrix, merge the stack's overrides, add
the node pool's scheduling, then (on an accelerated stack) the acceleration overrides;
validate the job after each step so that an error names the file that caused it.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from trainstack.config.loader import LoadedStack
from trainstack.config.node_pool import NodePool
from trainstack.config.queueing import QUEUE_LABEL, suspendable
from trainstack.core.errors import (
    ConfigError,
    ExperimentError,
    InvalidInputError,
    Problem,
    raise_all,
)
from trainstack.core.limits import MAX_EXPERIMENTS, MAX_RELEASES
from trainstack.core.validation import problems_from
from trainstack.core.values import merged, set_path
from trainstack.core.warning_ids import Acknowledgement
from trainstack.experiments.catalog import ExperimentSource, read_catalog
from trainstack.experiments.dialect import operator_api
from trainstack.experiments.placement import with_placement
from trainstack.experiments.runs import base_values_digest, release_name, run_metadata
from trainstack.metrics.spec import MetricSpec
from trainstack.training_job import TrainingJob


@dataclass(frozen=True)
class Experiment:
    """One run of an experiment as deployed on one stack (one Helm release)."""

    name: str
    """The release and job name: the experiment's name for run 1, ``<name>-r<N>`` after."""
    experiment_name: str
    """The experiment (a matrix point's own name), the same for all its runs."""
    base_name: str
    source: str
    namespace: str
    job: TrainingJob
    base_values: dict[str, Any]
    """Chart values without the stack's acceleration overrides (for the fairness report)."""
    acceleration_overrides: dict[str, Any] = field(default_factory=dict)
    point: dict[str, Any] | None = None
    team: str | None = None
    """The team whose namespace the experiment runs in (named in the file, or by namespace)."""
    queued: bool = False
    """Whether Kueue holds the job until its team's queue admits it (it has the queue label)."""
    run: int = 1
    metrics: tuple[MetricSpec, ...] = ()
    """What the experiment file declares its log reports (``metrics:``)."""
    pool: str | None = None
    """The GPU node pool its GPU pods run on (``None``: the stack has no GPU pool)."""
    acknowledgements: tuple[Acknowledgement, ...] = ()
    """The warnings its file acknowledges (``acknowledge``)."""

    @functools.cached_property
    def base_digest(self) -> str:
        """The digest of :attr:`base_values` (the job's base-values annotation)."""
        return base_values_digest(self.base_values)

    @functools.cached_property
    def values(self) -> dict[str, Any]:
        """The chart values deployed on this stack."""
        return self.job.chart_values()


@dataclass(frozen=True)
class _Candidate:
    name: str
    source: ExperimentSource
    job: dict[str, Any]
    point: dict[str, Any] | None


@dataclass(frozen=True)
class NotSelected:
    """Experiments of one file that the stack does not run (``trainstack:experiments.select``)."""

    file: str
    name: str
    """The file's experiment (or matrix) name."""
    experiments: tuple[str, ...]
    """The file's experiments (matrix points) left out, in the file's order."""


@dataclass(frozen=True)
class Selection:
    """What a stack runs of its experiments directory, and what it leaves out."""

    experiments: list[Experiment]
    not_selected: tuple[NotSelected, ...]


def resolve_experiments(project_root: Path, stack: LoadedStack) -> list[Experiment]:
    """The experiments ``stack`` runs, validated, sorted by name."""
    return resolve_selection(project_root, stack).experiments


def resolve_selection(project_root: Path, stack: LoadedStack) -> Selection:
    """The experiments ``stack`` runs (validated, sorted by name) and the files' experiments
    it does not select, by file."""
    directory = _directory(project_root, stack)
    catalog = read_catalog(directory, project_root)
    _check_count(catalog, stack)
    candidates = [candidate for source in catalog for candidate in _expand(source)]
    selected = _select(candidates, stack)
    _check_releases(selected, stack)
    _check_per_experiment_names(candidates, stack)
    _check_teams(selected, stack)
    errors: list[InvalidInputError] = []
    resolved: list[Experiment] = []
    for candidate in selected:
        try:
            resolved += _runs(_resolve(candidate, stack), candidate, stack)
        except InvalidInputError as error:
            errors.append(error)
    errors = _once_per_problem(errors)
    raise_all(errors)
    return Selection(
        sorted(resolved, key=lambda experiment: experiment.name),
        _not_selected(candidates, selected),
    )


def _not_selected(
    candidates: list[_Candidate], selected: list[_Candidate]
) -> tuple[NotSelected, ...]:
    chosen = {id(candidate) for candidate in selected}
    left: dict[tuple[str, str], list[str]] = {}
    for candidate in candidates:
        if id(candidate) not in chosen:
            source = candidate.source
            left.setdefault((source.display, source.spec.name), []).append(candidate.name)
    return tuple(
        NotSelected(file, name, tuple(names)) for (file, name), names in sorted(left.items())
    )


def _directory(project_root: Path, stack: LoadedStack) -> Path:
    """The experiments directory, which must exist: a misspelt one would run nothing."""
    name = stack.config.experiments.directory
    directory = project_root / name
    if directory.is_dir():
        return directory
    if directory.is_symlink():
        found = f"{name!r}, a symbolic link to {os.readlink(directory)!r}, which does not exist"
    elif directory.exists():
        found = f"{name!r}, which is not a directory"
    else:
        found = f"{name!r}, which does not exist in {project_root}"
    raise ConfigError(
        stack.source,
        [
            Problem(
                "trainstack:experiments.directory",
                found,
                "a directory of experiment files, relative to the project root (create it, "
                "empty, for a stack that runs no experiment)",
            )
        ],
    )


def _check_releases(selected: list[_Candidate], stack: LoadedStack) -> None:
    """At most ``MAX_RELEASES`` releases (experiments times runs), counted before any work."""
    runs = stack.config.experiments.runs
    total = 0
    for candidate in selected:
        chosen = runs.get(candidate.name) or runs.get(candidate.source.spec.name)
        total += chosen.count if chosen is not None else 1
    if total > MAX_RELEASES:
        raise ConfigError(
            stack.source,
            [
                Problem(
                    "trainstack:experiments.runs",
                    f"{total} releases ({len(selected)} experiments and their runs)",
                    f"at most {MAX_RELEASES} per stack (trainstack's limit: each run is a "
                    "release); select fewer experiments or deploy fewer runs at once",
                )
            ],
        )


def _once_per_problem(errors: list[InvalidInputError]) -> list[InvalidInputError]:
    """The same problems of one file at several matrix points: one error naming the points."""
    groups: dict[tuple[type[InvalidInputError], str, tuple[Problem, ...]], list[str]] = {}
    for error in errors:
        file, _, point = error.source.partition(_POINT)
        groups.setdefault((type(error), file, error.problems), []).append(point.rstrip(")"))
    merged: list[InvalidInputError] = []
    for (kind, file, problems), points in groups.items():
        named = [point for point in points if point]
        if len(named) > 1:
            file += f" (matrix points {', '.join(named)})"
        elif named:
            file += f"{_POINT}{named[0]})"
        merged.append(kind(file, problems))
    return merged


_POINT = " (matrix point "


def _check_count(catalog: list[ExperimentSource], stack: LoadedStack) -> None:
    """At most ``MAX_EXPERIMENTS`` experiments, counted before any matrix is expanded."""
    counts = [1 if s.spec.matrix is None else s.spec.matrix.point_count for s in catalog]
    if sum(counts) > MAX_EXPERIMENTS:
        directory = stack.config.experiments.directory
        raise ConfigError(
            stack.source,
            [
                Problem(
                    "trainstack:experiments.directory",
                    f"{sum(counts)} experiments in {directory}/ ({len(catalog)} files, "
                    "matrices expanded)",
                    f"at most {MAX_EXPERIMENTS} (trainstack's limit: each is a Helm release)",
                )
            ],
        )


def _expand(source: ExperimentSource) -> list[_Candidate]:
    spec = source.spec
    if spec.matrix is None:
        return [_Candidate(spec.name, source, dict(spec.job), None)]
    candidates = []
    for point in spec.matrix.expanded_points():
        job = dict(spec.job)
        for axis, path in spec.matrix.axes.items():
            job = set_path(job, path, point[axis])
        candidates.append(_Candidate(spec.matrix.point_name(spec.name, point), source, job, point))
    return candidates


def _select(candidates: list[_Candidate], stack: LoadedStack) -> list[_Candidate]:
    wanted = stack.config.experiments.select
    if wanted is None:
        return candidates
    known = {c.name for c in candidates} | {c.source.spec.name for c in candidates}
    problems = [
        Problem(
            f"trainstack:experiments.select[{index}]",
            repr(name),
            f"the name of an experiment or matrix: {', '.join(sorted(known)) or 'none found'}",
        )
        for index, name in enumerate(wanted)
        if name not in known
    ]
    if problems:
        raise ConfigError(stack.source, problems)
    return [c for c in candidates if c.name in wanted or c.source.spec.name in wanted]


def _check_per_experiment_names(candidates: list[_Candidate], stack: LoadedStack) -> None:
    """``overrides`` and ``runs`` may only name experiments (or matrices) that exist."""
    known = {c.name for c in candidates} | {c.source.spec.name for c in candidates}
    settings = stack.config.experiments
    problems = [
        Problem(
            f"trainstack:experiments.{section}.{name}",
            f"{section} of an unknown experiment",
            f"the name of an experiment or matrix: {', '.join(sorted(known)) or 'none found'}",
        )
        for section, names in (
            ("overrides", settings.overrides),
            ("runs", settings.runs),
            ("nodePools", settings.node_pools),
        )
        for name in sorted(names)
        if name not in known
    ]
    if problems:
        raise ConfigError(stack.source, problems)


def _check_teams(candidates: list[_Candidate], stack: LoadedStack) -> None:
    """Each file's team must exist, and a file that names a team may not move its namespace."""
    errors: list[InvalidInputError] = []
    for source in {id(c.source): c.source for c in candidates}.values():
        spec = source.spec
        if spec.team is None:
            continue
        team = stack.config.team(spec.team)
        if team is None:
            known = ", ".join(t.name for t in stack.config.teams) or "none"
            problem = Problem(
                "team", repr(spec.team), f"a team of trainstack:teams in {stack.source}: {known}"
            )
        elif spec.namespace is not None and spec.namespace != team.namespace_name:
            problem = Problem(
                "namespace",
                repr(spec.namespace),
                f"unset or {team.namespace_name!r}: team {team.name} works in namespace "
                f"{team.namespace_name!r} (its quota and members are there)",
            )
        else:
            continue
        errors.append(ExperimentError(source.display, [problem]))
    raise_all(errors)


def _placement(spec: Any, stack: LoadedStack) -> tuple[str, str | None]:
    """The experiment's namespace and team (a namespace of a team puts it in that team)."""
    if spec.team is not None:
        team = stack.config.team(spec.team)
        assert team is not None  # _check_teams refused unknown teams
        return team.namespace_name, team.name
    namespace = spec.namespace or "default"
    team = stack.config.team_in(namespace)
    return namespace, None if team is None else team.name


def _queueable(job: dict[str, Any], team: str | None, stack: LoadedStack) -> bool:
    """Whether Kueue holds the job: queueing is on, it has a team, its operator can suspend."""
    if team is None or not stack.config.queueing.enabled:
        return False
    framework = job.get("framework") or TrainingJob.model_fields["framework"].default
    return suspendable(framework, stack.config.operators)


def _with_queue(job: dict[str, Any], team: str) -> dict[str, Any]:
    """The job labelled with its team's LocalQueue (named after the team)."""
    labels = dict(job.get("labels") or {})
    labels.setdefault(QUEUE_LABEL, team)
    return {**job, "labels": labels}


def _resolve(candidate: _Candidate, stack: LoadedStack) -> Experiment:
    spec = candidate.source.spec
    where = candidate.source.display
    if candidate.point is not None:
        where += f"{_POINT}{candidate.name})"
    _validated(candidate.job, lambda problems: ExperimentError(where, problems), "job")

    job = candidate.job
    overrides = stack.config.experiments.overrides
    for key in dict.fromkeys([spec.name, candidate.name]):
        if key in overrides:
            job = merged(job, overrides[key])
            _validated(
                job,
                lambda problems: ConfigError(stack.source, problems),
                f"trainstack:experiments.overrides.{key}",
            )
    pool = _gpu_pool(candidate, stack)
    current = _validated(job, lambda problems: ExperimentError(where, problems), "job")
    job = with_placement(job, current, stack.config, pool)
    job = _in_operator_api(job, stack, where)
    namespace, team = _placement(spec, stack)
    queued = _queueable(job, team, stack)
    if queued:
        assert team is not None  # only a team's job is queued
        job = _with_queue(job, team)
    base = _validated(job, lambda problems: ExperimentError(where, problems), "job")

    acceleration = stack.config.acceleration
    applied: dict[str, Any] = {}
    final = base
    if acceleration.enabled and acceleration.experiment_overrides:
        applied = dict(acceleration.experiment_overrides)
        final = _validated(
            merged(job, applied),
            lambda problems: ConfigError(stack.source, problems),
            "trainstack:acceleration.experimentOverrides",
        )
    return Experiment(
        name=candidate.name,
        experiment_name=candidate.name,
        base_name=spec.name,
        source=candidate.source.display,
        namespace=namespace,
        job=final,
        base_values=base.chart_values(),
        acceleration_overrides=applied,
        point=candidate.point,
        team=team,
        queued=queued,
        metrics=tuple(spec.metrics),
        pool=None if pool is None else pool.name,
        acknowledgements=tuple(spec.acknowledge),
    )


def _in_operator_api(job: dict[str, Any], stack: LoadedStack, where: str) -> dict[str, Any]:
    """The job spelled for the operator serving it on ``stack`` (refused if it would lose
    a setting there)."""
    values = dict(job)
    problems = operator_api(
        values,
        stack,
        lambda raw: _validated(raw, lambda found: ExperimentError(where, found), "job"),
    )
    if problems:
        raise ExperimentError(where, problems)
    return values


def _runs(experiment: Experiment, candidate: _Candidate, stack: LoadedStack) -> list[Experiment]:
    """One release per run the stack deploys, each job labelled and annotated with its run.

    The metadata goes on the deployed job only, not in ``base_values``: the digest is of the
    base values, and the same runs on two stacks render the same metadata.
    """
    settings = stack.config.experiments.runs
    runs = settings.get(candidate.name) or settings.get(candidate.source.spec.name)
    numbers = runs.numbers() if runs is not None else range(1, 2)
    job = experiment.job
    deployed = []
    for run in numbers:
        labels, annotations = run_metadata(experiment.name, run, experiment.base_digest)
        with_metadata = job.model_copy(
            update={
                "labels": {**job.labels, **labels},
                "annotations": {**job.annotations, **annotations},
            }
        )
        deployed.append(
            dataclasses.replace(
                experiment, name=release_name(experiment.name, run), job=with_metadata, run=run
            )
        )
    return deployed


def _validated(job: Mapping[str, Any], error: Any, prefix: str) -> TrainingJob:
    try:
        return TrainingJob.model_validate(job)
    except ValidationError as failure:
        raise error(problems_from(failure, TrainingJob, prefix + ".")) from failure


def _gpu_pool(candidate: _Candidate, stack: LoadedStack) -> NodePool | None:
    """The experiment's GPU pool: the stack's choice, the file's, else the first GPU pool."""
    config = stack.config
    spec = candidate.source.spec
    chosen = config.experiments.node_pools
    for key in (candidate.name, spec.name):
        if key in chosen:
            where, name = f"trainstack:experiments.nodePools.{key}", chosen[key]
            error: type[InvalidInputError] = ConfigError
            source = stack.source
            break
    else:
        if spec.node_pool is None:
            return config.gpu_pools[0] if config.gpu_pools else None
        where, name, error, source = (
            "nodePool",
            spec.node_pool,
            ExperimentError,
            candidate.source.display,
        )
    pool = config.pool(name)
    if pool is None or not pool.is_gpu:
        names = ", ".join(p.name for p in config.gpu_pools) or "none"
        found = repr(name) if pool is None else f"{name!r} (a CPU pool)"
        raise error(
            source,
            [
                Problem(
                    where, found, f"a GPU pool of trainstack:nodePools in {stack.source}: {names}"
                )
            ],
        )
    return pool
