"""Which experiments a stack runs, checked before any of them is resolved.

The directory's files, their matrices expanded (each point a candidate), the stack's
``experiments.select``; the counts and the names the stack's settings use are checked
first, then each selected candidate is resolved (:mod:`trainstack.experiments.resolve`) and
the errors of all of them are raised together.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from trainstack.config.experiments import is_pattern, matches
from trainstack.config.stack import StackConfig
from trainstack.core.errors import (
    ConfigError,
    ExperimentError,
    InvalidInputError,
    Problem,
    TrainstackError,
    raise_all,
)
from trainstack.core.limits import MAX_EXPERIMENTS, MAX_RELEASES
from trainstack.core.mentions import Files
from trainstack.core.values import set_path
from trainstack.experiments.catalog import ExperimentSource, read_catalog
from trainstack.experiments.resolve import (
    POINT,
    Candidate,
    Experiment,
    check_candidate,
    resolve_candidate,
)

Only = Collection[str] | None
"""Of the experiments (matrix points) a stack runs, these alone (``None``: all): the others'
jobs are neither resolved nor checked (every file and the stack's settings are)."""


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
    files: Files
    """The files read (the stack's, the experiments'), by the name messages give them."""


def resolve_experiments(
    project_root: Path, config: StackConfig, stack_file: str, stack_files: Files, only: Only = None
) -> list[Experiment]:
    """The experiments the stack of ``config`` runs, validated, sorted by name
    (``stack_file``: its file, as messages name it)."""
    return resolve_selection(project_root, config, stack_file, stack_files, only).experiments


def resolve_selection(
    project_root: Path, config: StackConfig, stack_file: str, stack_files: Files, only: Only = None
) -> Selection:
    """The experiments the stack of ``config`` runs (validated, sorted by name) and the files'
    experiments it does not select, by file. ``stack_file``: the stack's file, as messages
    name it (never the loaded stack and its kubeconfig: resolving needs no secret), and
    ``stack_files`` where it and its template were read (for the lines of its errors)."""
    files = dict(stack_files)
    try:
        directory = _directory(project_root, config, stack_file)
        catalog = read_catalog(directory, project_root)
        for source in catalog:
            files.update(source.files)
        return _resolve_catalog(catalog, config, stack_file, files, only)
    except TrainstackError as error:
        raise error.reading(files) from None


def _resolve_catalog(
    catalog: list[ExperimentSource], config: StackConfig, stack_file: str, files: Files, only: Only
) -> Selection:
    _check_count(catalog, config, stack_file)
    candidates = [candidate for source in catalog for candidate in expand(source)]
    selected = _select(candidates, config, stack_file)
    _check_releases(selected, config, stack_file)
    _check_per_experiment_names(candidates, config, stack_file)
    _check_teams(selected, config, stack_file)
    errors: list[InvalidInputError] = []
    resolved: list[Experiment] = []
    chosen = {id(candidate) for candidate in selected}
    for candidate in candidates:
        if only is not None and candidate.name not in only:
            continue
        try:
            if id(candidate) in chosen:
                resolved += resolve_candidate(candidate, config, stack_file)
            else:  # checked all the same: a broken file fails every stack's plan
                check_candidate(candidate)
        except InvalidInputError as error:
            errors.append(error)
    errors = _once_per_problem(errors)
    raise_all(errors)
    return Selection(
        sorted(resolved, key=lambda experiment: experiment.release_name),
        _not_selected(candidates, selected),
        files,
    )


def _not_selected(
    candidates: list[Candidate], selected: list[Candidate]
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


def _directory(project_root: Path, config: StackConfig, stack_file: str) -> Path:
    """The experiments directory, which must exist: a misspelt one would run nothing."""
    name = config.experiments.directory
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
        stack_file,
        [
            Problem(
                "trainstack:experiments.directory",
                found,
                "a directory of experiment files, relative to the project root (create it, "
                "empty, for a stack that runs no experiment)",
            )
        ],
    )


def _check_releases(selected: list[Candidate], config: StackConfig, stack_file: str) -> None:
    """At most ``MAX_RELEASES`` releases (experiments times runs), counted before any work."""
    runs = config.experiments.runs
    total = 0
    for candidate in selected:
        chosen = runs.get(candidate.name) or runs.get(candidate.source.spec.name)
        total += chosen.count if chosen is not None else 1
    if total > MAX_RELEASES:
        raise ConfigError(
            stack_file,
            [
                Problem(
                    "trainstack:experiments.runs",
                    f"{total} releases ({len(selected)} experiments and their runs)",
                    f"at most {MAX_RELEASES:,} per stack (trainstack's limit: each run is a "
                    "release); select fewer experiments or deploy fewer runs at once",
                )
            ],
        )


def _once_per_problem(errors: list[InvalidInputError]) -> list[InvalidInputError]:
    """The same problems of one file at several matrix points: one error naming the points."""
    groups: dict[tuple[type[InvalidInputError], str, tuple[Problem, ...]], list[str]] = {}
    for error in errors:
        file, _, point = error.source.partition(POINT)
        groups.setdefault((type(error), file, error.problems), []).append(point.rstrip(")"))
    merged: list[InvalidInputError] = []
    for (kind, file, problems), points in groups.items():
        named = [point for point in points if point]
        if len(named) > 1:
            file += f" (matrix points {', '.join(named)})"
        elif named:
            file += f"{POINT}{named[0]})"
        merged.append(kind(file, problems))
    return merged


def _check_count(catalog: list[ExperimentSource], config: StackConfig, stack_file: str) -> None:
    """At most ``MAX_EXPERIMENTS`` experiments, counted before any matrix is expanded."""
    counts = [1 if s.spec.matrix is None else s.spec.matrix.point_count for s in catalog]
    if sum(counts) > MAX_EXPERIMENTS:
        directory = config.experiments.directory
        raise ConfigError(
            stack_file,
            [
                Problem(
                    "trainstack:experiments.directory",
                    f"{sum(counts)} experiments in {directory}/ ({len(catalog)} files, "
                    "matrices expanded)",
                    f"at most {MAX_EXPERIMENTS:,} (trainstack's limit: each is checked at "
                    "every plan)",
                )
            ],
        )


def expand(source: ExperimentSource) -> list[Candidate]:
    """The candidates of one file: its experiment, or each point of its matrix."""
    spec = source.spec
    if spec.matrix is None:
        return [Candidate(spec.name, source, dict(spec.job), None)]
    candidates = []
    for point in spec.matrix.expanded_points():
        job = dict(spec.job)
        for axis, path in spec.matrix.axes.items():
            job = set_path(job, path, point[axis])
        candidates.append(Candidate(spec.matrix.point_name(spec.name, point), source, job, point))
    return candidates


def _select(candidates: list[Candidate], config: StackConfig, stack_file: str) -> list[Candidate]:
    """The candidates ``select`` picks and ``exclude`` leaves; a name (not a pattern) in
    either must be an experiment's (a misspelt one would silently change what runs)."""
    settings = config.experiments
    known = {c.name for c in candidates} | {c.source.spec.name for c in candidates}
    problems = [
        Problem(
            f"trainstack:experiments.{section}[{index}]",
            repr(name),
            f"the name of an experiment or matrix: {', '.join(sorted(known)) or 'none found'} "
            "(or a glob pattern, e.g. '*')",
        )
        for section, names in (("select", settings.select or []), ("exclude", settings.exclude))
        for index, name in enumerate(names)
        if not is_pattern(name) and not matches(name, known)
    ]
    if problems:
        raise ConfigError(stack_file, problems)
    return [c for c in candidates if settings.selects((c.name, c.source.spec.name))]


def _check_per_experiment_names(
    candidates: list[Candidate], config: StackConfig, stack_file: str
) -> None:
    """``overrides`` and ``runs`` may only name experiments (or matrices) that exist."""
    known = {c.name for c in candidates} | {c.source.spec.name for c in candidates}
    settings = config.experiments
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
        raise ConfigError(stack_file, problems)


def _check_teams(candidates: list[Candidate], config: StackConfig, stack_file: str) -> None:
    """Each file's team must exist, and a file that names a team may not move its namespace."""
    errors: list[InvalidInputError] = []
    for source in {id(c.source): c.source for c in candidates}.values():
        spec = source.spec
        if spec.team is None:
            continue
        team = config.team(spec.team)
        if team is None:
            known = ", ".join(t.name for t in config.teams) or "none"
            problem = Problem(
                "team", repr(spec.team), f"a team of trainstack:teams in {stack_file}: {known}"
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
